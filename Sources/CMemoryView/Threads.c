// Facts about the calling process and thread that Swift cannot get directly.
#define _GNU_SOURCE
#include "CMemoryView.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
static inline uintptr_t mv_threadPointer(void) {
  uintptr_t pointer;
  __asm__("mov %%fs:0, %0" : "=r"(pointer));  // the TCB's first word points at itself
  return pointer;
}
#elif defined(__aarch64__)
static inline uintptr_t mv_threadPointer(void) {
  uintptr_t pointer;
  __asm__("mrs %0, tpidr_el0" : "=r"(pointer));
  return pointer;
}
#else
static inline uintptr_t mv_threadPointer(void) { return 0; }
#endif

static uintptr_t mv_mainThread;

// Runs when the image is loaded, on the thread that loads it: the main thread
// for anything linked into the executable.
__attribute__((constructor)) static void mv_recordMainThread(void) {
  if (getpid() == (pid_t)syscall(SYS_gettid)) mv_mainThread = mv_threadPointer();
}

__attribute__((noinline)) uintptr_t mv_currentStackPointer(void) {
  return (uintptr_t)__builtin_frame_address(0);
}

uintptr_t mv_currentThreadPointer(void) { return mv_threadPointer(); }

uintptr_t mv_mainThreadPointer(void) { return mv_mainThread; }

pid_t mv_currentThreadID(void) { return (pid_t)syscall(SYS_gettid); }

typedef struct MVThreadLocalVisit {
  void (*body)(void *context, uintptr_t bias, uintptr_t block, size_t size);
  void *context;
} MVThreadLocalVisit;

static int mv_visitImage(struct dl_phdr_info *info, size_t size, void *context) {
  (void)size;
  MVThreadLocalVisit *visit = context;
  if (info->dlpi_tls_modid == 0) return 0;
  for (unsigned index = 0; index < info->dlpi_phnum; index++) {
    const ElfW(Phdr) *segment = &info->dlpi_phdr[index];
    if (segment->p_type != PT_TLS) continue;
    visit->body(visit->context, info->dlpi_addr, (uintptr_t)info->dlpi_tls_data, segment->p_memsz);
  }
  return 0;
}

void mv_forEachThreadLocalBlock(void (*body)(void *context, uintptr_t bias, uintptr_t block, size_t size),
                                void *context) {
  MVThreadLocalVisit visit = {body, context};
  dl_iterate_phdr(mv_visitImage, &visit);
}

char *swift_demangle(const char *mangledName, size_t mangledNameLength, char *outputBuffer,
                     size_t *outputBufferSize, uint32_t flags);

char *mv_demangle(const char *mangled, size_t length) { return swift_demangle(mangled, length, NULL, NULL, 0); }

// Weak: a program without Swift concurrency has neither.
extern void *swift_task_getCurrent(void) __attribute__((weak));
extern const void *const _swift_concurrency_debug_asyncTaskSlabMetadata __attribute__((weak));

uintptr_t mv_currentTask(void) { return swift_task_getCurrent != NULL ? (uintptr_t)swift_task_getCurrent() : 0; }

uintptr_t mv_taskSlabMetadata(void) {
  return &_swift_concurrency_debug_asyncTaskSlabMetadata != NULL
    ? (uintptr_t)_swift_concurrency_debug_asyncTaskSlabMetadata : 0;
}

// Large tables ask for transparent huge pages: one fault per 2 MiB instead
// of 512 (the kernel honours it only where THP is enabled for madvise). A
// huge page covers an aligned 2 MiB only, and the kernel places a mapping
// at any page (it aligns only mappings whose length is a multiple of 2 MiB):
// large tables are placed on a 2 MiB boundary, growing ones too, or up to
// 2 MiB of each (all of a table that grew from small, remapped where the
// kernel chose) stayed in 4 KiB pages, each a fault and a page to zero.
#define MV_HUGE_PAGE ((size_t)2 << 20)

static void mv_adviseHuge(void *pointer, size_t size) {
  if (size >= MV_HUGE_PAGE) madvise(pointer, size, MADV_HUGEPAGE);
}

/// `size` bytes of address space from a 2 MiB boundary, reserved (no access)
/// for a mapping to replace, or NULL.
static void *mv_reserveAligned(size_t size) {
  size = (size + 4095) & ~(size_t)4095;
  size_t padded = size + MV_HUGE_PAGE;
  uint8_t *raw = mmap(NULL, padded, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) return NULL;
  uint8_t *aligned = (uint8_t *)(((uintptr_t)raw + MV_HUGE_PAGE - 1) & ~(uintptr_t)(MV_HUGE_PAGE - 1));
  if (aligned > raw) munmap(raw, (size_t)(aligned - raw));
  size_t tail = (size_t)((raw + padded) - (aligned + size));
  if (tail > 0) munmap(aligned + size, tail);
  return aligned;
}

void *mv_mapScratch(size_t size) {
  const int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
  void *pointer;
  if (size >= MV_HUGE_PAGE) {
    void *place = mv_reserveAligned(size);
    if (place == NULL) return NULL;
    pointer = mmap(place, size, PROT_READ | PROT_WRITE, flags | MAP_FIXED, -1, 0);
    if (pointer == MAP_FAILED) munmap(place, size);
  } else {
    pointer = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, -1, 0);
  }
  if (pointer == MAP_FAILED) return NULL;
  mv_adviseHuge(pointer, size);
  return pointer;
}

void *mv_remapScratch(void *address, size_t oldSize, size_t newSize) {
  void *pointer;
  if (newSize >= MV_HUGE_PAGE && newSize > oldSize) {
    void *place = mv_reserveAligned(newSize);
    if (place == NULL) return NULL;
    pointer = mremap(address, oldSize, newSize, MREMAP_MAYMOVE | MREMAP_FIXED, place);
    if (pointer == MAP_FAILED) munmap(place, newSize);
  } else {
    pointer = mremap(address, oldSize, newSize, MREMAP_MAYMOVE);
  }
  if (pointer == MAP_FAILED) return NULL;
  mv_adviseHuge(pointer, newSize);
  return pointer;
}

// MARK: CoreFoundation type names (this process only)

typedef const void *(*MVGetClass)(uintptr_t typeID);

size_t mv_coreFoundationTypeName(uintptr_t typeID, char *buffer, size_t capacity) {
  static MVGetClass getClass;
  static int looked;
  if (!__atomic_load_n(&looked, __ATOMIC_ACQUIRE)) {
    getClass = (MVGetClass)dlsym(RTLD_DEFAULT, "_CFRuntimeGetClassWithTypeID");
    __atomic_store_n(&looked, 1, __ATOMIC_RELEASE);
  }
  if (getClass == NULL || capacity < 2) return 0;
  if (typeID == 0 || typeID > 0x3FF) return 0;
  const void *runtimeClass = getClass(typeID);
  if (runtimeClass == NULL) return 0;
  uintptr_t name = 0;  // CFRuntimeClass: version, then className
  if (mv_read(getpid(), (uintptr_t)runtimeClass + 8, &name, sizeof name) != sizeof name || name == 0) return 0;
  size_t copied = mv_read(getpid(), name, buffer, capacity - 1);
  buffer[copied] = 0;
  return strnlen(buffer, copied);
}

typedef struct MVTLSSearch {
  const char *name;
  void *data;
  char path[4096];
} MVTLSSearch;

static int mv_findTLSData(struct dl_phdr_info *info, size_t size, void *context) {
  (void)size;
  MVTLSSearch *search = context;
  if (info->dlpi_name == NULL || strstr(info->dlpi_name, search->name) == NULL) return 0;
  search->data = info->dlpi_tls_data;
  snprintf(search->path, sizeof search->path, "%s", info->dlpi_name);
  return 1;
}

long mv_linkMapTLSOffsetField(const char *libraryName) {
  MVTLSSearch search = {libraryName, NULL, {0}};
  if (dl_iterate_phdr(mv_findTLSData, &search) == 0 || search.data == NULL) return -1;
  uintptr_t offset = mv_currentThreadPointer() - (uintptr_t)search.data;
  void *handle = dlopen(search.path, RTLD_LAZY | RTLD_NOLOAD);
  if (handle == NULL) return -1;
  // glibc's handle is the library's `struct link_map`: find the one word in
  // its (internal) tail that holds this module's TLS offset.
  const uintptr_t *words = handle;
  long found = -1;
  for (long index = 5; index < 160; index++) {
    if (words[index] != offset) continue;
    if (found >= 0) {
      found = -1;
      break;
    }
    found = index * (long)sizeof(uintptr_t);
  }
  dlclose(handle);
  return found;
}
