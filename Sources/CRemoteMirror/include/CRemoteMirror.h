// Declarations for the parts of the Swift runtime's Remote Mirror library
// (libswiftRemoteMirror.so) and of the Swift runtime that RetainGraph uses.
//
// The toolchain ships the library but no headers; these declarations follow
// the library's public C API (SwiftRemoteMirror.h, SwiftRemoteMirrorTypes.h,
// MemoryReaderInterface.h in the Swift repository) and are written for this
// package. Only what RetainGraph needs is declared.
#ifndef LEAKLAB_CREMOTEMIRROR_H
#define LEAKLAB_CREMOTEMIRROR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "SwiftObjectLayout.h"

#ifdef __cplusplus
extern "C" {
#endif

// MARK: Remote Mirror types

/// An opaque reflection context owned by the Remote Mirror library.
typedef struct SwiftReflectionContext *RMContextRef;

/// An opaque type reference; 0 means "none".
typedef uint64_t RMTypeRef;

/// Layout kinds, numbered as the library numbers them (verified against
/// `swift_reflection_dumpInfoForInstance` with Swift 6.3.1).
typedef enum RMLayoutKind {
  RMLayoutUnknown = 0,
  RMLayoutBuiltin = 1,
  RMLayoutRawPointer = 2,
  RMLayoutTuple = 3,
  RMLayoutStruct = 4,
  RMLayoutNoPayloadEnum = 5,
  RMLayoutSinglePayloadEnum = 6,
  RMLayoutMultiPayloadEnum = 7,
  RMLayoutThickFunction = 8,
  RMLayoutOpaqueExistential = 9,
  RMLayoutClassExistential = 10,
  RMLayoutErrorExistential = 11,
  RMLayoutExistentialMetatype = 12,
  RMLayoutStrongReference = 13,
  RMLayoutUnownedReference = 14,
  RMLayoutWeakReference = 15,
  RMLayoutUnmanagedReference = 16,
  RMLayoutClassInstance = 17,
  RMLayoutClosureContext = 18,
} RMLayoutKind;

/// The layout of a type, or of a class instance or closure context.
typedef struct RMTypeInfo {
  RMLayoutKind kind;
  unsigned size;
  unsigned alignment;
  unsigned stride;
  unsigned fieldCount;
} RMTypeInfo;

/// One field of a type, instance or closure context.
typedef struct RMChildInfo {
  /// Owned by the reflection context.
  const char *name;
  unsigned offset;
  RMLayoutKind kind;
  RMTypeRef typeRef;
} RMChildInfo;

// MARK: Remote Mirror functions (exported by libswiftRemoteMirror.so)

void swift_reflection_destroyReflectionContext(RMContextRef context);
uintptr_t swift_reflection_metadataForObject(RMContextRef context, uintptr_t object);
RMTypeRef swift_reflection_typeRefForMetadata(RMContextRef context, uintptr_t metadata);
RMTypeRef swift_reflection_typeRefForInstance(RMContextRef context, uintptr_t object);
RMTypeRef swift_reflection_typeRefForMangledTypeName(
  RMContextRef context, const char *mangledName, uint64_t length);
char *swift_reflection_copyNameForTypeRef(RMContextRef context, RMTypeRef typeRef, bool mangled);
RMTypeInfo swift_reflection_infoForTypeRef(RMContextRef context, RMTypeRef typeRef);
RMChildInfo swift_reflection_childOfTypeRef(RMContextRef context, RMTypeRef typeRef, unsigned index);
RMTypeInfo swift_reflection_infoForMetadata(RMContextRef context, uintptr_t metadata);
RMChildInfo swift_reflection_childOfMetadata(RMContextRef context, uintptr_t metadata, unsigned index);
RMTypeInfo swift_reflection_infoForInstance(RMContextRef context, uintptr_t object);
RMChildInfo swift_reflection_childOfInstance(RMContextRef context, uintptr_t object, unsigned index);
unsigned swift_reflection_genericArgumentCountOfTypeRef(RMTypeRef typeRef);
RMTypeRef swift_reflection_genericArgumentOfTypeRef(RMTypeRef typeRef, unsigned index);
int swift_reflection_projectExistential(
  RMContextRef context, uint64_t address, RMTypeRef existentialType, RMTypeRef *outInstanceType,
  uint64_t *outInstanceAddress);
int swift_reflection_projectEnumValue(
  RMContextRef context, uint64_t address, RMTypeRef enumType, int *outCaseIndex);
void swift_reflection_dumpInfoForInstance(RMContextRef context, uintptr_t object);
void swift_reflection_dumpTypeRef(RMTypeRef typeRef);
void swift_reflection_dumpInfoForMetadata(RMContextRef context, uintptr_t metadata);

// MARK: Swift tasks (the library's async task API)

/// What the library tells of a Swift task (`swift_async_task_info_t`).
typedef struct RMAsyncTaskInfo {
  const char *error;
  unsigned kind;
  unsigned enqueuePriority;
  // Swift 6.2 added a fifth flag here (IsSynchronousStartTask); the padding
  // keeps every field from `maxPriority`'s flags on at the same offset with
  // four or five, and `identifier` onwards at the same offset either way.
  bool isChildTask, isFuture, isGroupChildTask, isAsyncLetTask, isSynchronousStartTask;
  unsigned maxPriority;
  bool isCancelled, isStatusRecordLocked, isEscalated, hasIsRunning, isRunning, isEnqueued;
  bool hasThreadPort;
  uint32_t threadPort;
  uint64_t identifier;
  /// The function the task runs next: the resume point of its current await.
  uint64_t runJob;
  uint64_t allocatorSlab;
  unsigned childTaskCount;
  uint64_t *childTasks;
  unsigned asyncBacktraceFrameCount;
  /// The resume functions of the task's async frames, innermost first.
  uint64_t *asyncBacktraceFrames;
} RMAsyncTaskInfo;

RMAsyncTaskInfo swift_reflection_asyncTaskInfo(RMContextRef context, uint64_t task);

/// A task's first allocator slab (`swift_async_task_slab_return_t`).
typedef struct RMAsyncTaskSlab {
  const char *error;
  uint64_t slab;
} RMAsyncTaskSlab;

RMAsyncTaskSlab swift_reflection_asyncTaskSlabPointer(RMContextRef context, uint64_t task);

// MARK: Swift runtime functions (exported by libswiftCore.so)

size_t swift_retainCount(void *object);
/// Retains `object` unless it is deinitialising; returns it, or NULL.
void *swift_tryRetain(void *object);
void *swift_weakLoadStrong(void *weakReference);
void swift_release(void *object);
char *swift_demangle(
  const char *mangledName, size_t mangledNameLength, char *outputBuffer, size_t *outputBufferSize,
  uint32_t flags);

// MARK: LeakLab helpers (CRemoteMirror.c)

/// Creates a reflection context over this process's own memory and registers
/// the reflection sections of every loaded Swift image. With `safeReads`,
/// every read is a copy through `process_vm_readv` on our own pid, so a bad
/// address fails instead of faulting. Returns NULL if the library cannot be
/// initialised.
RMContextRef rm_createContext(bool safeReads);

/// Pages of another process a context keeps (see `rm_createContextReading`).
enum { RMCachePages = 256 };

/// The bytes `rm_createContextReading` needs for its page cache.
size_t rm_pageCacheSize(void);

/// Empties a page cache of `rm_pageCacheSize()` bytes for reading process `pid`.
void rm_initPageCache(void *cache, int pid);

/// Creates a reflection context whose every read is a copy from process
/// `pid` with `process_vm_readv` (never faulting, whatever the memory holds;
/// absurd sizes rejected): another process, or a frozen copy of this one.
/// The pages it reads are kept in `cache` (`rm_pageCacheSize()` bytes,
/// outliving the context; emptied here): the process must stay stopped
/// while the context reads it. Register its images with `rm_addOwnImages` (a copy of this
/// process: the same images at the same addresses) or
/// `rm_addReflectionSections`. NULL if the library cannot be initialised.
RMContextRef rm_createContextReading(int pid, void *cache);

/// Copies `size` bytes at `address` of the process a page cache reads
/// through the cache; returns the bytes copied (0 on failure).
size_t rm_readCached(void *cache, uintptr_t address, void *destination, size_t size);

/// Registers the reflection sections of every Swift image loaded in this
/// process with `context` (local and remote addresses alike).
void rm_addOwnImages(RMContextRef context);

/// Registers one image's reflection sections: `local` holds a copy of the
/// target's bytes from `remoteStart` (`length` bytes); each section is given
/// as its remote start and size (0 when absent), in the order fieldmd,
/// assocty, builtin, capture, typeref, reflstr. `local` must outlive the context.
void rm_addReflectionSections(
  RMContextRef context, const void *local, uint64_t remoteStart, uint64_t length,
  const uint64_t sectionStarts[6], const uint64_t sectionSizes[6]);

/// Copies `size` bytes at `address` of process `pid` into `destination` with
/// `process_vm_readv`; returns the bytes copied (0 on failure).
size_t rm_readProcess(int pid, uintptr_t address, void *destination, size_t size);

/// Copies `size` bytes at `address` into `destination`. Safe mode never
/// faults; returns the number of bytes copied (may be short at the end of a
/// mapping, 0 on failure). Sizes above 1 MiB are rejected.
size_t rm_read(uintptr_t address, void *destination, size_t size, bool safeReads);

/// One region to read ahead: `size` bytes at `address`. `bytes` and `copied`
/// are filled in by `rm_readRegions`.
typedef struct RMRegion {
  uintptr_t address;
  size_t size;
  const void *bytes;
  size_t copied;
} RMRegion;

/// Reads every region with one system call in safe mode, into `arena`:
/// regions are sorted by address and those less than a page apart are read as
/// one span (each extra span costs the kernel more than a page of copying).
/// Sets each region's `bytes` (where its copy starts) and `copied` (bytes
/// copied: 0 for an implausible region, for one that did not fit in the arena,
/// and for regions in or after a span that could not be read in full). At most
/// 64 regions; the rest get 0.
void rm_readRegions(RMRegion *regions, size_t count, void *arena, size_t arenaSize, bool safeReads);

/// Reads the word at each of `addresses` into `words` (0 where unreadable),
/// in as few system calls as possible.
void rm_readWords(const uintptr_t *addresses, uintptr_t *words, size_t count, bool safeReads);

/// How many reads this thread has made with `process_vm_readv` (for tests).
size_t rm_systemCallCount(void);

/// Retains the object at `address` if it is still a live object whose
/// metadata is `metadata`, without trusting its memory: the header and any
/// side table are copied with `process_vm_readv` and checked first, the strong
/// count is added by one compare-and-swap that fails unless the count word
/// still holds the live value just read, and the object is checked again while
/// held. Returns the object (+1, to be released by the caller), or NULL.
/// Never faults, and never writes to memory that is no longer that object.
/// (ObjectRetain.c)
void *rm_retainIfLive(uintptr_t address, uintptr_t metadata);

/// The object a native Swift weak reference stored at `weakReference` points
/// to, or 0 when it is nil, its object is deinitialising, or the memory does
/// not hold a weak reference. Reads only through `process_vm_readv`; retains
/// nothing. (ObjectRetain.c)
uintptr_t rm_weakTarget(uintptr_t weakReference);

#ifdef __cplusplus
}
#endif

#endif
