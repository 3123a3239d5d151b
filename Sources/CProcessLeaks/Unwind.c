// Real call stacks of stopped threads, from the DWARF call frame information
// of their images (libunwind's ptrace accessors): which frames are live and
// which function each belongs to.
#include "CProcessLeaks.h"

#include <libunwind-ptrace.h>

size_t pl_unwind(pid_t thread, uint64_t *instructionPointers, uint64_t *stackPointers, size_t capacity) {
  unw_addr_space_t space = unw_create_addr_space(&_UPT_accessors, 0);
  if (space == NULL) return 0;
  void *context = _UPT_create(thread);
  if (context == NULL) {
    unw_destroy_addr_space(space);
    return 0;
  }
  unw_cursor_t cursor;
  size_t count = 0;
  if (unw_init_remote(&cursor, space, context) == 0) {
    do {
      unw_word_t ip = 0, sp = 0;
      if (unw_get_reg(&cursor, UNW_REG_IP, &ip) != 0 || unw_get_reg(&cursor, UNW_REG_SP, &sp) != 0) break;
      instructionPointers[count] = ip;
      stackPointers[count] = sp;
      count++;
    } while (count < capacity && unw_step(&cursor) > 0);
  }
  _UPT_destroy(context);
  unw_destroy_addr_space(space);
  return count;
}
