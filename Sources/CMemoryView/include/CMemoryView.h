// The small C layer of MemoryView: what Swift cannot do cleanly. Reads of
// any process's memory through `process_vm_readv` (never a load that can
// fault), ELF symbol tables read from image files, and a few facts about the
// calling thread (its stack pointer, its thread pointer, the main thread's).
#ifndef LEAKLAB_CMEMORYVIEW_H
#define LEAKLAB_CMEMORYVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "CMemoryViewScan.h"

#ifdef __cplusplus
extern "C" {
#endif

// MARK: Reads

/// The largest read accepted in one call (256 MiB); larger ones copy nothing.
enum { MVMaximumRead = 1 << 28 };

/// Copies `size` bytes at `address` in process `pid` into `destination`.
/// Returns the bytes copied: short at the end of a readable range, 0 when
/// nothing is readable, the address is outside user space or `size` is absurd.
size_t mv_read(pid_t pid, uintptr_t address, void *destination, size_t size);

/// Reads the word at each of `addresses` into `words` (0 where unreadable),
/// batched into as few system calls as possible. `readable` (optional) gets
/// 1 for each word read, 0 otherwise.
void mv_readWords(pid_t pid, const uintptr_t *addresses, uintptr_t *words, uint8_t *readable, size_t count);

/// One region of a batched read: `size` bytes at `address` into `destination`;
/// `copied` is filled in.
typedef struct MVReadRegion {
  uintptr_t address;
  size_t size;
  void *destination;
  size_t copied;
} MVReadRegion;

/// Reads every region, batched (up to 1024 regions a system call); a region
/// that cannot be read in full is retried on its own, so one bad region does
/// not spoil the others.
void mv_readRegions(pid_t pid, MVReadRegion *regions, size_t count);

/// How many `process_vm_readv` calls this thread has made (for tests and benchmarks).
size_t mv_systemCallCount(void);

// MARK: ELF symbol tables

/// The kind of a symbol.
typedef enum MVSymbolKind {
  MVSymbolFunction = 1,
  MVSymbolObject = 2,
  MVSymbolThreadLocal = 4,
} MVSymbolKind;

/// An ELF image file read for its symbols (`.symtab`, else `.dynsym`).
/// Images are loaded once per path and kept for the life of the process.
typedef struct MVElfFile MVElfFile;

/// The symbols of the ELF file at `path`, or NULL when it cannot be read or is
/// not a 64-bit ELF file. Thread-safe.
const MVElfFile *mv_elfFile(const char *path);

/// Whether the file's symbols came from a full `.symtab` (false: `.dynsym` only).
bool mv_elfHasFullSymbolTable(const MVElfFile *file);

/// The number of symbols of the kinds in `kinds` (a mask of MVSymbolKind).
size_t mv_elfSymbolCount(const MVElfFile *file);

/// The symbol of a kind in `kinds` that contains `fileAddress` (an address
/// as the file numbers it: runtime address minus the image's load bias).
/// A symbol of size 0 contains only its own address. Writes its start and
/// size, returns its (mangled) name, owned by the file; NULL if none.
const char *mv_elfSymbolContaining(
  const MVElfFile *file, uint64_t fileAddress, unsigned kinds, uint64_t *start, uint64_t *size);

/// The file address of the first symbol named `name` of a kind in `kinds`, or 0.
uint64_t mv_elfSymbolAddress(const MVElfFile *file, const char *name, unsigned kinds, uint64_t *size);

/// The GNU build id of the file as lowercase hex into `buffer`; returns its length (0 if none).
size_t mv_elfBuildID(const MVElfFile *file, char *buffer, size_t capacity);

/// How many objects the dynamic linker has loaded into this process so far
/// (it only grows): when it changed, this process's image list is stale.
uint64_t mv_loadCount(void);

// MARK: The calling process and thread

/// An address in the caller's stack frame: everything below it belongs to
/// frames called later (the scan's own).
uintptr_t mv_currentStackPointer(void);

/// The calling thread's thread pointer (the `fs` base on x86_64: its TCB).
uintptr_t mv_currentThreadPointer(void);

/// The main thread's thread pointer, recorded when the library was loaded.
uintptr_t mv_mainThreadPointer(void);

/// The calling thread's kernel thread id.
pid_t mv_currentThreadID(void);

/// Calls `body` for every image loaded in this process that has a thread-local
/// segment: its load bias, the module's TLS block in the calling thread (NULL
/// if not allocated yet) and the segment's size in memory.
void mv_forEachThreadLocalBlock(void (*body)(void *context, uintptr_t bias, uintptr_t block, size_t size),
                                void *context);

/// Where glibc's `struct link_map` keeps a module's static TLS offset (the
/// distance from a thread pointer down to the module's TLS block), measured
/// in this process on the loaded library whose file name contains
/// `libraryName`: the byte offset of the field, or -1 when the library is
/// not loaded here, has no static TLS, or the field cannot be told apart.
/// Any process with the same glibc lays the struct out the same way.
long mv_linkMapTLSOffsetField(const char *libraryName);

/// Forks a copy of the calling process that stops itself at once (SIGSTOP)
/// and dies with its parent: its memory is this process's at the instant of
/// the fork, still while other threads go on (glibc's fork holds malloc's
/// locks across it, so the copy's heap is consistent). Returns the child's
/// pid once it has stopped, or -1. End it with `mv_endFrozenCopy`.
pid_t mv_forkFrozenCopy(void);

/// Kills and reaps a copy made by `mv_forkFrozenCopy`.
void mv_endFrozenCopy(pid_t child);

/// The Swift task running on the calling thread (its heap object), or 0.
uintptr_t mv_currentTask(void);

/// The metadata word that starts every slab of a task's allocator (where
/// its async frames live), from the concurrency library's debug variables; 0 if unknown.
uintptr_t mv_taskSlabMetadata(void);

/// Maps `size` bytes of private anonymous memory (reserved lazily: pages cost
/// nothing until touched). NULL on failure.
void *mv_mapScratch(size_t size);

/// Grows or shrinks a mapping made by `mv_mapScratch`, moving it if needed
/// (without copying its pages). NULL on failure (the old mapping stays).
void *mv_remapScratch(void *address, size_t oldSize, size_t newSize);

/// The name (`CFRunLoopTimer`) of the CoreFoundation type with id `typeID`
/// (bits 8-17 of a CoreFoundation object's info word, 16 bytes in), from
/// this process's class table through `_CFRuntimeGetClassWithTypeID`: the
/// same table as any process's with the same Foundation. Writes it into
/// `buffer` and returns its length, 0 when unknown.
size_t mv_coreFoundationTypeName(uintptr_t typeID, char *buffer, size_t capacity);

/// Demangles a Swift symbol name with the runtime's demangler; the result is
/// malloc'd (free it), or NULL.
char *mv_demangle(const char *mangled, size_t length);

#ifdef __cplusplus
}
#endif

#endif
