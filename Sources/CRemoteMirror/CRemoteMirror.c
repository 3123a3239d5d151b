// LeakLab's small C layer over the Remote Mirror library: context creation
// with in-process memory readers, image registration, safe reads and ELF
// `.symtab` lookups for closure names.
#define _GNU_SOURCE
#include "CRemoteMirror.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

// MARK: Private declarations of the library's context API

typedef const void *(*RMReadBytes)(void *reader, uint64_t address, uint64_t size, void **outFreeContext);
typedef void (*RMFreeBytes)(void *reader, const void *bytes, void *freeContext);
typedef uint64_t (*RMStringLength)(void *reader, uint64_t address);
typedef uint64_t (*RMSymbolAddress)(void *reader, const char *name, uint64_t length);

RMContextRef swift_reflection_createReflectionContext(
  void *reader, uint8_t pointerSize, RMFreeBytes freeBytes, RMReadBytes readBytes,
  RMStringLength stringLength, RMSymbolAddress symbolAddress);

typedef struct RMSection {
  void *begin;
  void *end;
} RMSection;

typedef struct RMSectionPair {
  RMSection section;
  uint64_t offset;  // deprecated by the library; always 0
} RMSectionPair;

typedef struct RMReflectionInfo {
  RMSectionPair field;
  RMSectionPair associatedTypes;
  RMSectionPair builtinTypes;
  RMSectionPair capture;
  RMSectionPair typeReferences;
  RMSectionPair reflectionStrings;
  uint64_t localStartAddress;
  uint64_t remoteStartAddress;
} RMReflectionInfo;

void swift_reflection_addReflectionInfo(RMContextRef context, RMReflectionInfo info);

// The runtime's description of one image's metadata sections (SwiftShims'
// MetadataSections, version 4 and later; only the prefix we read).
typedef struct RMSectionRange {
  uintptr_t start;
  size_t length;
} RMSectionRange;

typedef struct RMMetadataSections {
  uintptr_t version;
  const void *baseAddress;
  void *unused0;
  void *unused1;
  RMSectionRange protocols;
  RMSectionRange protocolConformances;
  RMSectionRange typeMetadata;
  RMSectionRange typeref;
  RMSectionRange reflstr;
  RMSectionRange fieldmd;
  RMSectionRange assocty;
  RMSectionRange replace;
  RMSectionRange replac2;
  RMSectionRange builtin;
  RMSectionRange capture;
} RMMetadataSections;

void swift_enumerateAllMetadataSections(
  bool (*body)(const RMMetadataSections *sections, void *context), void *context);

// MARK: Reads

enum { RMMaximumRead = 1 << 20, RMMaximumString = 1 << 16 };

// The process id, cached: `getpid` is a system call of its own in glibc, as
// costly as a small read. A forked child must not read its parent, so the
// cache is cleared in the child (the handler is installed before the first
// value is cached).
static pid_t rm_cachedPid;
static pthread_once_t rm_pidOnce = PTHREAD_ONCE_INIT;

static void rm_forgetPid(void) { __atomic_store_n(&rm_cachedPid, 0, __ATOMIC_RELAXED); }

static void rm_installForkHandler(void) { pthread_atfork(NULL, NULL, rm_forgetPid); }

static pid_t rm_ownPid(void) {
  pid_t pid = __atomic_load_n(&rm_cachedPid, __ATOMIC_RELAXED);
  if (pid != 0) return pid;
  pthread_once(&rm_pidOnce, rm_installForkHandler);
  pid = getpid();
  __atomic_store_n(&rm_cachedPid, pid, __ATOMIC_RELAXED);
  return pid;
}

static _Thread_local size_t rm_systemCalls;

size_t rm_systemCallCount(void) { return rm_systemCalls; }

static bool rm_plausibleAddress(uint64_t address, uint64_t size) {
  return address >= 4096 && size <= RMMaximumRead && address + size > address
    && address + size < 0x0000800000000000ULL;
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RM_ADDRESS_SANITIZER 1
#endif
#endif

// A read of memory the caller knows is mapped, but not what it holds: a name
// read a fixed length past the end of a global, words of a block another
// thread freed. Under AddressSanitizer a plain copy that neither the pass nor
// the memcpy interceptor checks; otherwise memcpy.
#ifdef RM_ADDRESS_SANITIZER
__attribute__((no_sanitize("address"))) static void rm_copyUnchecked(void *destination, uintptr_t address,
                                                                      size_t size) {
  volatile const unsigned char *source = (volatile const unsigned char *)address;
  unsigned char *target = destination;
  for (size_t index = 0; index < size; index++) target[index] = source[index];
}
#else
static void rm_copyUnchecked(void *destination, uintptr_t address, size_t size) {
  memcpy(destination, (const void *)address, size);
}
#endif

size_t rm_read(uintptr_t address, void *destination, size_t size, bool safeReads) {
  if (size == 0 || !rm_plausibleAddress(address, size)) return 0;
  if (!safeReads) {
    rm_copyUnchecked(destination, address, size);
    return size;
  }
  struct iovec local = {destination, size};
  struct iovec remote = {(void *)address, size};
  rm_systemCalls++;
  ssize_t copied = process_vm_readv(rm_ownPid(), &local, 1, &remote, 1, 0);
  return copied > 0 ? (size_t)copied : 0;
}

void rm_readWords(const uintptr_t *addresses, uintptr_t *words, size_t count, bool safeReads) {
  enum { Batch = 256 };
  struct iovec local[Batch], remote[Batch];
  size_t index = 0;
  while (index < count) {
    size_t batch = 0;
    while (batch < Batch && index + batch < count) {
      uintptr_t address = addresses[index + batch];
      words[index + batch] = 0;
      if (!rm_plausibleAddress(address, sizeof(uintptr_t))) break;
      local[batch].iov_base = &words[index + batch];
      local[batch].iov_len = sizeof(uintptr_t);
      remote[batch].iov_base = (void *)address;
      remote[batch].iov_len = sizeof(uintptr_t);
      batch++;
    }
    if (batch == 0) {
      index++;  // an implausible address: left at 0
      continue;
    }
    if (!safeReads) {
      for (size_t item = 0; item < batch; item++) words[index + item] = *(const uintptr_t *)addresses[index + item];
      index += batch;
      continue;
    }
    rm_systemCalls++;
    ssize_t copied = process_vm_readv(rm_ownPid(), local, batch, remote, batch, 0);
    size_t complete = copied > 0 ? (size_t)copied / sizeof(uintptr_t) : 0;
    // The read stops at the first failing address: skip it, carry on after it.
    index += complete < batch ? complete + 1 : batch;
  }
}

void rm_readRegions(RMRegion *regions, size_t count, void *arena, size_t arenaSize, bool safeReads) {
  enum { MaximumRegions = 64, Page = 4096 };
  size_t order[MaximumRegions];
  size_t sorted = 0;
  for (size_t item = 0; item < count; item++) {
    regions[item].bytes = NULL;
    regions[item].copied = 0;
    if (item >= MaximumRegions || regions[item].size == 0
        || !rm_plausibleAddress(regions[item].address, regions[item].size))
      continue;
    size_t at = sorted++;
    while (at > 0 && regions[order[at - 1]].address > regions[item].address) {
      order[at] = order[at - 1];
      at--;
    }
    order[at] = item;
  }
  // Spans: [start, end) of our memory, each read into the arena at `offset`.
  struct iovec local[MaximumRegions], remote[MaximumRegions];
  size_t spans = 0, used = 0;
  size_t spanOf[MaximumRegions];
  for (size_t rank = 0; rank < sorted; rank++) {
    RMRegion *region = &regions[order[rank]];
    uintptr_t end = region->address + region->size;
    if (spans > 0) {
      uintptr_t start = (uintptr_t)remote[spans - 1].iov_base;
      uintptr_t spanEnd = start + remote[spans - 1].iov_len;
      if (region->address <= spanEnd + Page) {
        size_t grown = end > spanEnd ? end - spanEnd : 0;
        if (used + grown <= arenaSize) {
          remote[spans - 1].iov_len += grown;
          local[spans - 1].iov_len += grown;
          used += grown;
          spanOf[rank] = spans - 1;
          continue;
        }
      }
    }
    if (used + region->size > arenaSize) {
      spanOf[rank] = SIZE_MAX;
      continue;
    }
    local[spans].iov_base = (char *)arena + used;
    local[spans].iov_len = region->size;
    remote[spans].iov_base = (void *)region->address;
    remote[spans].iov_len = region->size;
    used += region->size;
    spanOf[rank] = spans++;
  }
  if (spans == 0) return;
  size_t spanCopied[MaximumRegions];
  if (safeReads) {
    rm_systemCalls++;
    ssize_t total = process_vm_readv(rm_ownPid(), local, spans, remote, spans, 0);
    // The kernel fills the spans in order and stops at the first it cannot read.
    size_t left = total > 0 ? (size_t)total : 0;
    for (size_t span = 0; span < spans; span++) {
      size_t size = remote[span].iov_len;
      spanCopied[span] = left < size ? left : size;
      left -= spanCopied[span];
    }
  } else {
    for (size_t span = 0; span < spans; span++) {
      rm_copyUnchecked(local[span].iov_base, (uintptr_t)remote[span].iov_base, remote[span].iov_len);
      spanCopied[span] = remote[span].iov_len;
    }
  }
  for (size_t rank = 0; rank < sorted; rank++) {
    if (spanOf[rank] == SIZE_MAX) continue;
    RMRegion *region = &regions[order[rank]];
    size_t span = spanOf[rank];
    size_t skip = region->address - (uintptr_t)remote[span].iov_base;
    region->bytes = (const char *)local[span].iov_base + skip;
    size_t available = spanCopied[span] > skip ? spanCopied[span] - skip : 0;
    region->copied = available < region->size ? available : region->size;
  }
}

static const void *rm_safeReadBytes(void *reader, uint64_t address, uint64_t size, void **outFreeContext) {
  (void)reader;
  *outFreeContext = NULL;
  if (!rm_plausibleAddress(address, size)) return NULL;
  void *copy = malloc(size == 0 ? 1 : size);
  if (copy == NULL) return NULL;
  if (size != 0 && rm_read((uintptr_t)address, copy, size, true) != size) {
    free(copy);
    return NULL;
  }
  return copy;
}

static void rm_safeFreeBytes(void *reader, const void *bytes, void *freeContext) {
  (void)reader;
  (void)freeContext;
  free((void *)bytes);
}

static uint64_t rm_safeStringLength(void *reader, uint64_t address) {
  (void)reader;
  char chunk[256];
  uint64_t length = 0;
  while (length < RMMaximumString) {
    size_t copied = rm_read((uintptr_t)(address + length), chunk, sizeof chunk, true);
    if (copied == 0) return 0;
    const char *end = memchr(chunk, 0, copied);
    if (end != NULL) return length + (uint64_t)(end - chunk);
    length += copied;
  }
  return 0;
}

static const void *rm_directReadBytes(void *reader, uint64_t address, uint64_t size, void **outFreeContext) {
  (void)reader;
  *outFreeContext = NULL;
  if (!rm_plausibleAddress(address, size)) return NULL;
  return (const void *)(uintptr_t)address;
}

static uint64_t rm_directStringLength(void *reader, uint64_t address) {
  (void)reader;
  if (!rm_plausibleAddress(address, 1)) return 0;
  return strnlen((const char *)(uintptr_t)address, RMMaximumString);
}

static uint64_t rm_symbolAddress(void *reader, const char *name, uint64_t length) {
  (void)reader;
  char buffer[512];
  if (length >= sizeof buffer) return 0;
  memcpy(buffer, name, length);
  buffer[length] = 0;
  return (uint64_t)(uintptr_t)dlsym(RTLD_DEFAULT, buffer);
}

// MARK: Context

static RMSectionPair rm_pair(RMSectionRange range) {
  RMSectionPair pair = {{(void *)range.start, (void *)(range.start + range.length)}, 0};
  return pair;
}

static bool rm_addImage(const RMMetadataSections *sections, void *context) {
  if (sections->version < 1 || sections->fieldmd.length == 0) return true;
  RMReflectionInfo info;
  memset(&info, 0, sizeof info);
  info.field = rm_pair(sections->fieldmd);
  info.associatedTypes = rm_pair(sections->assocty);
  info.builtinTypes = rm_pair(sections->builtin);
  info.capture = rm_pair(sections->capture);
  info.typeReferences = rm_pair(sections->typeref);
  info.reflectionStrings = rm_pair(sections->reflstr);
  info.localStartAddress = (uint64_t)(uintptr_t)sections->baseAddress;
  info.remoteStartAddress = info.localStartAddress;
  swift_reflection_addReflectionInfo((RMContextRef)context, info);
  return true;
}

// MARK: Contexts reading another process (or a frozen copy of this one)

enum { RMMaximumProcessRead = 64 << 20 };

static bool rm_plausibleProcessRead(uint64_t address, uint64_t size) {
  return address >= 4096 && size <= RMMaximumProcessRead && address + size > address
    && address + size <= 0x0000800000000000ULL;
}

size_t rm_readProcess(int pid, uintptr_t address, void *destination, size_t size) {
  if (size == 0 || !rm_plausibleProcessRead(address, size)) return 0;
  struct iovec local = {destination, size};
  struct iovec remote = {(void *)address, size};
  ssize_t copied = process_vm_readv((pid_t)pid, &local, 1, &remote, 1, 0);
  return copied > 0 ? (size_t)copied : 0;
}

// The reader's context: the target's pid and the pages read from it. The
// library reads the same context descriptors, names and metadata again and
// again while it demangles the field descriptors it scans (at 10³ objects,
// 40 % of an analysis' CPU was its 4–40-byte reads, a system call each): a
// page once read is served from here for the context's life, for which the
// process is stopped (a model is one instant of it).
typedef struct RMPageCache {
  int pid;
  uint64_t tags[RMCachePages];  // the page's address + 1, or 0
  uint8_t pages[RMCachePages][4096];
} RMPageCache;

size_t rm_pageCacheSize(void) { return sizeof(RMPageCache); }

void rm_initPageCache(void *cache, int pid) {
  // The tags only: a page's bytes are read before its tag says so, and a
  // fresh mapping's pages stay untouched until a read needs them (zeroing
  // the whole megabyte was pages to fault for every model).
  RMPageCache *pages = cache;
  memset(pages->tags, 0, sizeof pages->tags);
  pages->pid = pid;
}

size_t rm_readCached(void *cache, uintptr_t address, void *destination, size_t size) {
  RMPageCache *pages = cache;
  if (size == 0 || !rm_plausibleProcessRead(address, size)) return 0;
  if (size > 16 * 4096) return rm_readProcess(pages->pid, address, destination, size);
  size_t copied = 0;
  while (copied < size) {
    uintptr_t at = address + copied, page = at & ~(uintptr_t)4095;
    size_t slot = (page >> 12) % RMCachePages, offset = at - page;
    size_t want = size - copied < 4096 - offset ? size - copied : 4096 - offset;
    if (pages->tags[slot] != page + 1) {
      if (rm_readProcess(pages->pid, page, pages->pages[slot], 4096) != 4096) {
        // Not a whole readable page: read what was asked, uncached.
        pages->tags[slot] = 0;
        return copied + rm_readProcess(pages->pid, at, (char *)destination + copied, size - copied);
      }
      pages->tags[slot] = page + 1;
    }
    memcpy((char *)destination + copied, pages->pages[slot] + offset, want);
    copied += want;
  }
  return copied;
}

static const void *rm_processReadBytes(void *reader, uint64_t address, uint64_t size, void **outFreeContext) {
  *outFreeContext = NULL;
  if (!rm_plausibleProcessRead(address, size)) return NULL;
  void *copy = malloc(size == 0 ? 1 : size);
  if (copy == NULL) return NULL;
  if (size != 0 && rm_readCached(reader, (uintptr_t)address, copy, size) != size) {
    free(copy);
    return NULL;
  }
  return copy;
}

static uint64_t rm_processStringLength(void *reader, uint64_t address) {
  char chunk[256];
  uint64_t length = 0;
  while (length < RMMaximumString) {
    // Never across a page end in one read: the string may end just before an unmapped page.
    size_t toPageEnd = 4096 - (size_t)((address + length) & 4095);
    size_t want = toPageEnd < sizeof chunk ? toPageEnd : sizeof chunk;
    size_t copied = rm_readCached(reader, (uintptr_t)(address + length), chunk, want);
    if (copied == 0) return 0;
    const char *end = memchr(chunk, 0, copied);
    if (end != NULL) return length + (uint64_t)(end - chunk);
    length += copied;
  }
  return 0;
}

static uint64_t rm_noSymbolAddress(void *reader, const char *name, uint64_t length) {
  // The library asks for a few runtime symbols that only matter for
  // Objective-C interop and tagged pointers: none exist on Linux.
  (void)reader;
  (void)name;
  (void)length;
  return 0;
}

RMContextRef rm_createContextReading(int pid, void *cache) {
  rm_initPageCache(cache, pid);
  return swift_reflection_createReflectionContext(
    cache, sizeof(void *), rm_safeFreeBytes, rm_processReadBytes, rm_processStringLength, rm_noSymbolAddress);
}

void rm_addOwnImages(RMContextRef context) { swift_enumerateAllMetadataSections(rm_addImage, context); }

void rm_addReflectionSections(
  RMContextRef context, const void *local, uint64_t remoteStart, uint64_t length,
  const uint64_t sectionStarts[6], const uint64_t sectionSizes[6]) {
  RMSectionPair pairs[6];
  for (int index = 0; index < 6; index++) {
    uint64_t start = sectionStarts[index], size = sectionSizes[index];
    bool inside = size != 0 && start >= remoteStart && start + size <= remoteStart + length;
    char *begin = inside ? (char *)local + (start - remoteStart) : NULL;
    pairs[index].section.begin = begin;
    pairs[index].section.end = inside ? begin + size : NULL;
    pairs[index].offset = 0;
  }
  RMReflectionInfo info = {
    pairs[0], pairs[1], pairs[2], pairs[3], pairs[4], pairs[5], (uint64_t)(uintptr_t)local, remoteStart,
  };
  swift_reflection_addReflectionInfo(context, info);
}

RMContextRef rm_createContext(bool safeReads) {
  RMContextRef context = swift_reflection_createReflectionContext(
    NULL, sizeof(void *), safeReads ? rm_safeFreeBytes : NULL,
    safeReads ? rm_safeReadBytes : rm_directReadBytes,
    safeReads ? rm_safeStringLength : rm_directStringLength, rm_symbolAddress);
  if (context == NULL) return NULL;
  swift_enumerateAllMetadataSections(rm_addImage, context);
  return context;
}
