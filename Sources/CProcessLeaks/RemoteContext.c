// A Remote Mirror reflection context over another process: every read the
// library makes is a copy with process_vm_readv from the target, so it can
// never fault, whatever the target's memory holds.
#define _GNU_SOURCE
#include "CProcessLeaks.h"
#include "CMemoryView.h"

#include <stdlib.h>
#include <string.h>

// The library's context API (SwiftRemoteMirror.h, MemoryReaderInterface.h),
// declared for this package.
typedef const void *(*PLReadBytes)(void *reader, uint64_t address, uint64_t size, void **outFreeContext);
typedef void (*PLFreeBytes)(void *reader, const void *bytes, void *freeContext);
typedef uint64_t (*PLStringLength)(void *reader, uint64_t address);
typedef uint64_t (*PLSymbolAddress)(void *reader, const char *name, uint64_t length);

PLReflectionContext swift_reflection_createReflectionContext(
  void *reader, uint8_t pointerSize, PLFreeBytes freeBytes, PLReadBytes readBytes, PLStringLength stringLength,
  PLSymbolAddress symbolAddress);
void swift_reflection_destroyReflectionContext(PLReflectionContext context);

typedef struct PLSection {
  const void *begin;
  const void *end;
} PLSection;

typedef struct PLSectionPair {
  PLSection section;
  uint64_t offset;  // deprecated by the library; always 0
} PLSectionPair;

typedef struct PLReflectionInfo {
  PLSectionPair field;
  PLSectionPair associatedTypes;
  PLSectionPair builtinTypes;
  PLSectionPair capture;
  PLSectionPair typeReferences;
  PLSectionPair reflectionStrings;
  uint64_t localStartAddress;
  uint64_t remoteStartAddress;
} PLReflectionInfo;

void swift_reflection_addReflectionInfo(PLReflectionContext context, PLReflectionInfo info);

enum { PLMaximumRead = 64 << 20, PLMaximumString = 1 << 16 };

static bool pl_plausible(uint64_t address, uint64_t size) {
  return address >= 4096 && size <= PLMaximumRead && address + size > address
    && address + size <= 0x0000800000000000ULL;
}

static size_t pl_readRemote(pid_t pid, uint64_t address, void *destination, size_t size) {
  if (size == 0 || !pl_plausible(address, size)) return 0;
  return mv_read(pid, (uintptr_t)address, destination, size);
}

/// The reader's context: the target's pid, stored in the pointer itself.
static pid_t pl_readerPid(void *reader) { return (pid_t)(intptr_t)reader; }

static const void *pl_readBytes(void *reader, uint64_t address, uint64_t size, void **outFreeContext) {
  *outFreeContext = NULL;
  if (!pl_plausible(address, size)) return NULL;
  void *copy = malloc(size == 0 ? 1 : size);
  if (copy == NULL) return NULL;
  if (size != 0 && pl_readRemote(pl_readerPid(reader), address, copy, size) != size) {
    free(copy);
    return NULL;
  }
  return copy;
}

static void pl_freeBytes(void *reader, const void *bytes, void *freeContext) {
  (void)reader;
  (void)freeContext;
  free((void *)bytes);
}

static uint64_t pl_stringLength(void *reader, uint64_t address) {
  char chunk[256];
  uint64_t length = 0;
  while (length < PLMaximumString) {
    // Never across a page end in one read: the string may end just before an unmapped page.
    size_t toPageEnd = 4096 - (size_t)((address + length) & 4095);
    size_t want = toPageEnd < sizeof chunk ? toPageEnd : sizeof chunk;
    size_t copied = pl_readRemote(pl_readerPid(reader), address + length, chunk, want);
    if (copied == 0) return 0;
    const char *end = memchr(chunk, 0, copied);
    if (end != NULL) return length + (uint64_t)(end - chunk);
    length += copied;
  }
  return 0;
}

static uint64_t pl_symbolAddress(void *reader, const char *name, uint64_t length) {
  // The library asks for a few runtime symbols that only matter for
  // Objective-C interop and tagged pointers: none exist on Linux.
  (void)reader;
  (void)name;
  (void)length;
  return 0;
}

PLReflectionContext pl_createRemoteContext(pid_t pid) {
  return swift_reflection_createReflectionContext(
    (void *)(intptr_t)pid, sizeof(void *), pl_freeBytes, pl_readBytes, pl_stringLength, pl_symbolAddress);
}

void pl_destroyRemoteContext(PLReflectionContext context) { swift_reflection_destroyReflectionContext(context); }

void pl_addReflectionSections(
  PLReflectionContext context, const void *local, uint64_t remoteStart, uint64_t length,
  const uint64_t sectionStarts[6], const uint64_t sectionSizes[6]) {
  PLSectionPair pairs[6];
  for (int index = 0; index < 6; index++) {
    uint64_t start = sectionStarts[index], size = sectionSizes[index];
    bool inside = size != 0 && start >= remoteStart && start + size <= remoteStart + length;
    const char *begin = inside ? (const char *)local + (start - remoteStart) : NULL;
    pairs[index].section.begin = begin;
    pairs[index].section.end = inside ? begin + size : NULL;
    pairs[index].offset = 0;
  }
  PLReflectionInfo info = {
    pairs[0], pairs[1], pairs[2], pairs[3], pairs[4], pairs[5], (uint64_t)(uintptr_t)local, remoteStart,
  };
  swift_reflection_addReflectionInfo(context, info);
}
