// The allocation recorder: preloaded (LD_PRELOAD) into a program `leaklab
// leaks --stacks` starts, it records for every live malloc block the stack
// that allocated it, so the report can say where each leak was made.
//
// It interposes glibc's allocation functions and calls glibc's own
// (`__libc_malloc`…), so the heap is glibc's as always. The stack is walked
// along the frame-pointer chain (Swift and the Swift runtime keep frame
// pointers; a function without one costs its caller's frame), bounded by the
// thread's stack. Stacks are deduplicated; each live block maps to a stack
// id in a hash table. Every table lives in mmap'd memory the recorder owns,
// and holds no word that looks like a heap pointer (AllocationRecord.h), so
// the recorder never keeps a leak reachable. One lock guards the tables; an
// allocation made while recording (by the recorder's own calls into libc)
// is passed through unrecorded. Fork: the lock is held across `fork` and
// released on both sides.
#define _GNU_SOURCE
#include "AllocationRecord.h"

#include <errno.h>
#include <link.h>
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *block, size_t size);
extern void __libc_free(void *block);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);
extern void *__libc_stack_end;

#define LL_EXPORT __attribute__((visibility("default")))
#define LL_TLS __attribute__((tls_model("initial-exec")))

/// What `leaklab` reads (AllocationRecord.h).
LL_EXPORT LLRecord leaklab_allocation_record;

static pthread_mutex_t recordLock = PTHREAD_MUTEX_INITIALIZER;
/// Capacities of the growing regions (untagged copies of what the record says).
static uint64_t stackCapacity;
static uint64_t frameCapacity;
/// The stack dedup table: `LLTag | (id + 1)` per slot, 0 empty.
static uint64_t *stackSlots;
static uint64_t stackSlotCapacity;

/// The executable's loaded segments (from its lowest to its highest address).
static uintptr_t programLow, programHigh;

/// Set while this thread is inside the recorder.
static __thread LL_TLS bool inside;
/// The top of this thread's stack, once known.
static __thread LL_TLS uintptr_t stackTop;

// MARK: Memory the recorder owns

static void *ll_map(size_t bytes) {
  void *region = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return region == MAP_FAILED ? NULL : region;
}

/// Doubles a region in place or moves it (its pages move, nothing is copied).
static void *ll_grow(void *region, size_t bytes, size_t newBytes) {
  void *grown = mremap(region, bytes, newBytes, MREMAP_MAYMOVE);
  return grown == MAP_FAILED ? NULL : grown;
}

static inline uint64_t ll_mix(uint64_t value) {
  value ^= value >> 33;
  value *= 0xff51afd7ed558ccdULL;
  value ^= value >> 33;
  return value;
}

// MARK: Stacks

static uintptr_t ll_stackTop(void) {
  if (stackTop != 0) return stackTop;
  if (syscall(SYS_gettid) == getpid()) {
    stackTop = (uintptr_t)__libc_stack_end;
  } else {
    pthread_attr_t attributes;
    void *low = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
      pthread_attr_getstack(&attributes, &low, &size);
      pthread_attr_destroy(&attributes);
    }
    stackTop = (uintptr_t)low + size;
  }
  return stackTop;
}

/// The return addresses along the frame-pointer chain from `frame` (the
/// interposed function's own frame: its first is the allocation's caller),
/// until a saved frame pointer that is zero, leaves the thread's stack or
/// does not lead outward (a function built without frame pointers used the
/// register for data).
static unsigned ll_walk(uintptr_t frame, uintptr_t *out) {
  uintptr_t top = ll_stackTop();
  uintptr_t low = frame;
  unsigned depth = 0;
  while (depth < LLMaxDepth && frame >= low && frame + 16 <= top && (frame & 7) == 0) {
    uintptr_t next = ((uintptr_t *)frame)[0];
    uintptr_t returnAddress = ((uintptr_t *)frame)[1];
    if (returnAddress < 0x10000) break;
    out[depth++] = returnAddress;
    // A Swift async frame marks its saved frame pointer with bit 60.
    next &= ~((uintptr_t)1 << 60);
    if (next <= frame) break;
    low = frame;
    frame = next;
  }
  return depth;
}

/// The stack unwound with the images' call frame information (libunwind,
/// which caches what it learns of each function): slower, used only where
/// the frame pointers broke off before any frame of the program. Starts at `caller` (the allocation's caller, which the
/// frame-pointer walk always has); 0 when `caller` is not found.
static unsigned ll_unwind(uintptr_t caller, uintptr_t *out) {
  void *frames[LLMaxDepth + 8];
  int count = unw_backtrace(frames, LLMaxDepth + 8);
  int first = 0;
  while (first < count && (uintptr_t)frames[first] != caller) first++;
  unsigned depth = 0;
  for (int index = first; index < count && depth < LLMaxDepth; index++) out[depth++] = (uintptr_t)frames[index];
  return depth;
}

static uint64_t ll_hashFrames(const uintptr_t *frames, unsigned depth) {
  uint64_t hash = depth;
  for (unsigned index = 0; index < depth; index++) hash = ll_mix(hash ^ frames[index]) + index;
  return hash;
}

static bool ll_sameStack(const LLStackEntry *entry, const uintptr_t *frames, unsigned depth) {
  uint64_t packed = entry->frames & ~LLTag;
  if ((packed >> 32) != depth) return false;
  const uint64_t *stored = (const uint64_t *)leaklab_allocation_record.frames + (uint32_t)packed;
  return memcmp(stored, frames, depth * sizeof(uintptr_t)) == 0;
}

static bool ll_growStackSlots(void) {
  uint64_t capacity = stackSlotCapacity * 2;
  uint64_t *slots = ll_map(capacity * sizeof(uint64_t));
  if (slots == NULL) return false;
  const LLStackEntry *stacks = (const LLStackEntry *)leaklab_allocation_record.stacks;
  for (uint64_t id = 0; id < leaklab_allocation_record.stackCount; id++) {
    uint64_t slot = ll_mix(stacks[id].hash) & (capacity - 1);
    while (slots[slot] != 0) slot = (slot + 1) & (capacity - 1);
    slots[slot] = LLTag | (id + 1);
  }
  munmap(stackSlots, stackSlotCapacity * sizeof(uint64_t));
  stackSlots = slots;
  stackSlotCapacity = capacity;
  return true;
}

/// The id of this stack, added if new; UINT32_MAX when out of memory.
static uint32_t ll_stackID(const uintptr_t *frames, unsigned depth) {
  LLRecord *record = &leaklab_allocation_record;
  if (record->stackCount + 1 >= stackSlotCapacity) return UINT32_MAX;
  uint64_t hash = LLTag | ll_hashFrames(frames, depth);
  uint64_t slot = ll_mix(hash) & (stackSlotCapacity - 1);
  LLStackEntry *stacks = (LLStackEntry *)record->stacks;
  for (; stackSlots[slot] != 0; slot = (slot + 1) & (stackSlotCapacity - 1)) {
    uint64_t id = (stackSlots[slot] & ~LLTag) - 1;
    if (stacks[id].hash == hash && ll_sameStack(&stacks[id], frames, depth)) return (uint32_t)id;
  }
  if (record->stackCount == stackCapacity) {
    void *grown = ll_grow(stacks, stackCapacity * sizeof(LLStackEntry), 2 * stackCapacity * sizeof(LLStackEntry));
    if (grown == NULL) return UINT32_MAX;
    record->stacks = (uint64_t)grown;
    stacks = grown;
    stackCapacity *= 2;
  }
  while (record->frameCount + depth > frameCapacity) {
    void *grown = ll_grow((void *)record->frames, frameCapacity * 8, 2 * frameCapacity * 8);
    if (grown == NULL) return UINT32_MAX;
    record->frames = (uint64_t)grown;
    frameCapacity *= 2;
  }
  memcpy((uint64_t *)record->frames + record->frameCount, frames, depth * sizeof(uintptr_t));
  uint64_t id = record->stackCount;
  stacks[id].hash = hash;
  stacks[id].frames = LLTag | (uint64_t)depth << 32 | record->frameCount;
  record->frameCount += depth;
  record->stackCount = id + 1;
  stackSlots[slot] = LLTag | (id + 1);
  if (record->stackCount * 2 > stackSlotCapacity) ll_growStackSlots();
  return (uint32_t)id;
}

// MARK: Blocks

static LLBlockTable *ll_newBlockTable(uint64_t capacity) {
  size_t bytes = sizeof(LLBlockTable) + capacity * sizeof(LLBlockEntry);
  LLBlockTable *table = ll_map(bytes);
  if (table == NULL) return NULL;
  // Lookups land anywhere in the table: huge pages spare a TLB miss on most of them.
  if (bytes >= (2u << 20)) madvise(table, bytes, MADV_HUGEPAGE);
  table->capacity = LLTag | capacity;
  table->count = LLTag;
  table->used = LLTag;
  return table;
}

/// Neighbouring blocks get neighbouring slots (malloc hands out addresses in
/// order, so a run of allocations touches few cache lines); each 64 MiB
/// region (a thread's arena) is spread by its own offset.
static inline uint64_t ll_blockSlot(uint64_t inverted, uint64_t capacity) {
  uint64_t address = ~inverted;
  return ((address >> 4) + (address >> 26) * 0x9e3779b1ULL) & (capacity - 1);
}

/// Rebuilds the table (twice as large when it is more than a quarter live);
/// the record points at the new one only once it is complete.
static bool ll_rehash(void) {
  LLBlockTable *old = (LLBlockTable *)leaklab_allocation_record.blockTable;
  uint64_t oldCapacity = old->capacity & ~LLTag;
  uint64_t live = old->count & ~LLTag;
  uint64_t capacity = live * 4 >= oldCapacity ? oldCapacity * 2 : oldCapacity;
  LLBlockTable *table = ll_newBlockTable(capacity);
  if (table == NULL) return false;
  for (uint64_t index = 0; index < oldCapacity; index++) {
    LLBlockEntry entry = old->entries[index];
    if (entry.inverted <= 1) continue;
    uint64_t slot = ll_blockSlot(entry.inverted, capacity);
    while (table->entries[slot].inverted != 0) slot = (slot + 1) & (capacity - 1);
    table->entries[slot] = entry;
  }
  table->count = LLTag | live;
  table->used = LLTag | live;
  __atomic_store_n(&leaklab_allocation_record.blockTable, (uint64_t)table, __ATOMIC_RELEASE);
  munmap(old, sizeof(LLBlockTable) + oldCapacity * sizeof(LLBlockEntry));
  return true;
}

static void ll_insert(uintptr_t address, uint32_t stack) {
  LLBlockTable *table = (LLBlockTable *)leaklab_allocation_record.blockTable;
  uint64_t capacity = table->capacity & ~LLTag;
  if (((table->used & ~LLTag) + 1) * 2 > capacity) {
    if (!ll_rehash()) {
      leaklab_allocation_record.dropped++;
      return;
    }
    table = (LLBlockTable *)leaklab_allocation_record.blockTable;
    capacity = table->capacity & ~LLTag;
  }
  uint64_t inverted = ~(uint64_t)address;
  uint64_t slot = ll_blockSlot(inverted, capacity);
  // A block's address is unique while it lives: the first empty or freed slot will do,
  // unless the same address is still listed (a free the recorder missed).
  uint64_t freeSlot = UINT64_MAX;
  for (; table->entries[slot].inverted != 0; slot = (slot + 1) & (capacity - 1)) {
    if (table->entries[slot].inverted == inverted) {
      table->entries[slot].stack = LLTag | stack;
      return;
    }
    if (table->entries[slot].inverted == 1 && freeSlot == UINT64_MAX) freeSlot = slot;
  }
  if (freeSlot == UINT64_MAX) {
    freeSlot = slot;
    table->used++;
  }
  table->entries[freeSlot].stack = LLTag | stack;
  table->entries[freeSlot].inverted = inverted;
  table->count++;
}

static void ll_remove(uintptr_t address) {
  LLBlockTable *table = (LLBlockTable *)leaklab_allocation_record.blockTable;
  if (table == NULL) return;
  uint64_t capacity = table->capacity & ~LLTag;
  uint64_t inverted = ~(uint64_t)address;
  for (uint64_t slot = ll_blockSlot(inverted, capacity); table->entries[slot].inverted != 0;
       slot = (slot + 1) & (capacity - 1)) {
    if (table->entries[slot].inverted == inverted) {
      table->entries[slot].inverted = 1;
      table->entries[slot].stack = LLTag;
      table->count--;
      return;
    }
  }
}

static bool ll_start(void) {
  LLRecord *record = &leaklab_allocation_record;
  if (record->magic == LLRecordMagic) return true;
  stackCapacity = 1 << 14;
  frameCapacity = 1 << 18;
  stackSlotCapacity = 1 << 15;
  void *stacks = ll_map(stackCapacity * sizeof(LLStackEntry));
  void *frames = ll_map(frameCapacity * sizeof(uint64_t));
  stackSlots = ll_map(stackSlotCapacity * sizeof(uint64_t));
  LLBlockTable *table = ll_newBlockTable(1 << 16);
  if (stacks == NULL || frames == NULL || stackSlots == NULL || table == NULL) return false;
  record->stacks = (uint64_t)stacks;
  record->frames = (uint64_t)frames;
  record->blockTable = (uint64_t)table;
  record->version = LLRecordVersion;
  record->magic = LLRecordMagic;
  return true;
}

// MARK: Recording

static void ll_recordAllocation(void *block, uintptr_t frame) {
  if (block == NULL || inside) return;
  inside = true;
  uintptr_t frames[LLMaxDepth];
  unsigned depth = ll_walk(frame, frames);
  // Only where the chain reached no frame of the program (C code built without
  // frame pointers broke it: `strdup`'s caller in libdispatch; or a function used
  // the register for data, zero included): the program's frames are what a site
  // needs, and unwinding every allocation would cost several times more.
  bool inProgram = false;
  for (unsigned index = 0; index < depth; index++)
    if (frames[index] >= programLow && frames[index] < programHigh) inProgram = true;
  if (depth > 0 && depth < LLMaxDepth && !inProgram && programHigh != 0) {
    uintptr_t unwound[LLMaxDepth];
    unsigned unwoundDepth = ll_unwind(frames[0], unwound);
    if (unwoundDepth > depth) {
      memcpy(frames, unwound, unwoundDepth * sizeof(uintptr_t));
      depth = unwoundDepth;
    }
  }
  pthread_mutex_lock(&recordLock);
  if (ll_start()) {
    uint32_t stack = ll_stackID(frames, depth);
    if (stack == UINT32_MAX)
      leaklab_allocation_record.dropped++;
    else
      ll_insert((uintptr_t)block, stack);
  }
  pthread_mutex_unlock(&recordLock);
  inside = false;
}

static void ll_recordFree(void *block) {
  if (block == NULL || inside) return;
  inside = true;
  pthread_mutex_lock(&recordLock);
  ll_remove((uintptr_t)block);
  pthread_mutex_unlock(&recordLock);
  inside = false;
}

// MARK: The interposed functions (each reads its own frame: the walk starts at its caller)

LL_EXPORT void *malloc(size_t size) {
  void *block = __libc_malloc(size);
  ll_recordAllocation(block, (uintptr_t)__builtin_frame_address(0));
  return block;
}

LL_EXPORT void *calloc(size_t count, size_t size) {
  void *block = __libc_calloc(count, size);
  ll_recordAllocation(block, (uintptr_t)__builtin_frame_address(0));
  return block;
}

LL_EXPORT void *realloc(void *old, size_t size) {
  if (old != NULL) ll_recordFree(old);
  void *block = __libc_realloc(old, size);
  if (block != NULL || size != 0)
    ll_recordAllocation(block != NULL ? block : old, (uintptr_t)__builtin_frame_address(0));
  return block;
}

LL_EXPORT void free(void *block) {
  ll_recordFree(block);
  __libc_free(block);
}

LL_EXPORT void *memalign(size_t alignment, size_t size) {
  void *block = __libc_memalign(alignment, size);
  ll_recordAllocation(block, (uintptr_t)__builtin_frame_address(0));
  return block;
}

LL_EXPORT void *aligned_alloc(size_t alignment, size_t size) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    errno = EINVAL;
    return NULL;
  }
  void *block = __libc_memalign(alignment, size);
  ll_recordAllocation(block, (uintptr_t)__builtin_frame_address(0));
  return block;
}

LL_EXPORT int posix_memalign(void **out, size_t alignment, size_t size) {
  if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0) return EINVAL;
  void *block = __libc_memalign(alignment, size);
  if (block == NULL) return ENOMEM;
  ll_recordAllocation(block, (uintptr_t)__builtin_frame_address(0));
  *out = block;
  return 0;
}

LL_EXPORT void *valloc(size_t size) {
  void *block = __libc_valloc(size);
  ll_recordAllocation(block, (uintptr_t)__builtin_frame_address(0));
  return block;
}

LL_EXPORT void *pvalloc(size_t size) {
  void *block = __libc_pvalloc(size);
  ll_recordAllocation(block, (uintptr_t)__builtin_frame_address(0));
  return block;
}

// MARK: Loading

/// Notes the executable's range: the first object `dl_iterate_phdr` reports.
static int ll_noteProgram(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  (void)data;
  uintptr_t low = UINTPTR_MAX, high = 0;
  for (int index = 0; index < info->dlpi_phnum; index++) {
    const ElfW(Phdr) *header = &info->dlpi_phdr[index];
    if (header->p_type != PT_LOAD) continue;
    uintptr_t start = info->dlpi_addr + header->p_vaddr;
    if (start < low) low = start;
    if (start + header->p_memsz > high) high = start + header->p_memsz;
  }
  programLow = low;
  programHigh = high;
  return 1;
}

/// Takes the recorder out of `LD_PRELOAD` (entries split by spaces or colons),
/// so the program sees the environment it was given and its own children
/// run unrecorded (and unchanged: the recorder loads the Swift runtime).
static void ll_leaveEnvironment(void) {
  const char *preload = getenv("LD_PRELOAD");
  if (preload == NULL) return;
  static const char name[] = "libLeakLabAllocationRecorder.so";
  size_t length = strlen(preload);
  char *kept = __libc_malloc(length + 1);
  if (kept == NULL) return;
  size_t used = 0;
  for (const char *entry = preload; *entry != '\0';) {
    size_t size = strcspn(entry, " :");
    bool isRecorder = size >= sizeof name - 1 && memcmp(entry + size - (sizeof name - 1), name, sizeof name - 1) == 0;
    if (size > 0 && !isRecorder) {
      if (used > 0) kept[used++] = ' ';
      memcpy(kept + used, entry, size);
      used += size;
    }
    entry += size;
    if (*entry != '\0') entry++;
  }
  kept[used] = '\0';
  if (used == 0)
    unsetenv("LD_PRELOAD");
  else
    setenv("LD_PRELOAD", kept, 1);
  __libc_free(kept);
}

// MARK: Fork

static void ll_beforeFork(void) { pthread_mutex_lock(&recordLock); }
static void ll_afterFork(void) { pthread_mutex_unlock(&recordLock); }

__attribute__((constructor)) static void ll_load(void) {
  inside = true;
  pthread_atfork(ll_beforeFork, ll_afterFork, ll_afterFork);
  dl_iterate_phdr(ll_noteProgram, NULL);
  ll_leaveEnvironment();
  // The unwinder loads libgcc_s on its first use: here, not inside an allocation.
  void *frames[2];
  unw_backtrace(frames, 2);
  inside = false;
}
