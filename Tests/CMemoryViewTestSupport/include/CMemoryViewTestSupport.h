// Hand-built C structures for MemoryView's tests: what a heap scan must see
// through (malloc'd lists held from globals, blocks held only from another
// thread's stack, mmapped chunks, pointers into the middle of a block).
#ifndef LEAKLAB_CMEMORYVIEWTESTSUPPORT_H
#define LEAKLAB_CMEMORYVIEWTESTSUPPORT_H

#include <stddef.h>
#include <stdint.h>

/// Addresses handed to Swift are XOR-ed with this mask, so that the test's own
/// frames do not hold the plain address of the block under test.
#define MVT_MASK ((uintptr_t)0x5A5A5A5A5A5A5A5AULL)

/// A global that holds the head of a malloc'd singly linked list.
extern void *mvt_listHead;
/// A global that holds a pointer into the middle of a block.
extern void *mvt_interiorPointer;
/// A global that holds the first of a chain of mmapped chunks.
extern void *mvt_mappedChain;

/// The list's head as an address (0 when empty).
uintptr_t mvt_listHeadAddress(void);

/// Builds a list of `count` nodes of `size` bytes (first word: next) into
/// `mvt_listHead`; returns the masked address of the last node.
uintptr_t mvt_makeList(size_t count, size_t size);
/// Frees the list.
void mvt_freeList(void);

/// Allocates a block of `size` bytes and keeps a pointer `offset` bytes into
/// it in `mvt_interiorPointer`; returns the masked block address.
uintptr_t mvt_makeInteriorPointer(size_t size, size_t offset);
void mvt_freeInteriorPointer(void);

/// Three blocks of `size` bytes (large enough to be mmapped), each pointing at
/// the next; the first held by `mvt_mappedChain`. Returns the masked last block.
uintptr_t mvt_makeMappedChain(size_t size);
void mvt_freeMappedChain(void);
/// The first block of the chain (0 when none).
uintptr_t mvt_mappedChainAddress(void);

/// Fixes malloc's mmap threshold at 128 KiB (no dynamic raise after a free).
void mvt_fixMmapThreshold(void);

/// Starts a thread that allocates a block of `size` bytes, keeps it only in a
/// local variable, and waits. Returns the masked block address and writes the
/// thread's kernel id.
uintptr_t mvt_startStackHolder(size_t size, int *threadID);
/// Lets the holder thread free its block and finish.
void mvt_stopStackHolder(void);

/// On a thread of its own, which then waits (so its tcache stays as it is),
/// allocates `count` blocks of `size` bytes and frees them; writes their
/// masked addresses into `addresses`. At most 64.
void mvt_allocateAndFreeOnThread(size_t size, size_t count, uintptr_t *addresses);
/// Lets that thread finish.
void mvt_stopFreeingThread(void);

/// Starts threads that allocate and free without pause (up to 4).
void mvt_startChurn(int threads);
void mvt_stopChurn(void);

/// Starts a thread that, without pause, replaces the 72-byte block the global
/// `mvt_movingHolder` holds by a fresh one (then frees the old one): each
/// holds a block of `size` bytes, the only pointer to it. Returns that
/// block's masked address. The way libdispatch moves its timer heap's array.
uintptr_t mvt_startMovingHolder(size_t size);
/// Stops the thread and frees the blocks.
void mvt_stopMovingHolder(void);
extern void *mvt_movingHolder;

/// Forks a child that builds a list of `count` nodes of `size` bytes into
/// `mvt_listHead`, then stops itself (SIGSTOP). Returns the child's pid once
/// it has stopped (or -1), and writes the masked address of the list's last node.
int mvt_forkStoppedListChild(size_t count, size_t size, uintptr_t *last);
/// Kills and reaps the child.
void mvt_killChild(int pid);

/// A C object the way C runtimes lay theirs out: a type word first (here
/// `&mvt_structType`), then a context pointer, held by a global. Keeps
/// `context` (a retained Swift object) until `mvt_releaseTypedStruct`, which
/// returns it for releasing.
void mvt_holdInTypedStruct(void *context);
void *mvt_releaseTypedStruct(void);
/// The same with no type word: a plain buffer holding the pointer.
void mvt_holdInPlainBuffer(void *context);
void *mvt_releasePlainBuffer(void);

/// A plain block (1936 B) owned by a typed C object (its word 1), which a
/// global reaches through three plain links (`mvt_ownerHead`); and a plain
/// 2 KiB table held by the global `mvt_staleTable` whose word 200, past what
/// the table uses, points at the block too. Returns the block's address,
/// masked. `mvt_dropOwnersWord` clears the owner's word (the table's word is
/// then the only one); `mvt_freeOwnedBlock` frees it all.
uintptr_t mvt_makeOwnedBlockAndStaleTable(void);
void mvt_dropOwnersWord(void);
void mvt_freeOwnedBlock(void);

/// `context` in a plain buffer that only a global named as one of the Swift
/// runtime's cache variables reaches (`variable` 0: `$s…MI`, 1: `$s…MK`,
/// 2: `$s…MD`), through a node of its own, and a page of an anonymous
/// mapping also points at: the shape of a runtime cache's stale word into a
/// program's buffer.
void mvt_holdBehindCache(int variable, void *context);
void *mvt_releaseBehindCache(void);

/// After `mvt_makeOwnedBlockAndStaleTable`: a table that only a global named
/// as a runtime cache variable (`$s…MK`) holds, whose first word points into
/// an image (it reads as a C object, as the runtime's type-name cache's
/// table does when its first bucket holds a type's metadata) and whose word
/// 7 points at the start of the second link from `mvt_ownerHead`: a stale
/// word in an empty bucket. `mvt_releaseCacheTable` frees it.
void mvt_holdCacheTableWithStaleWordToALink(void);
void mvt_releaseCacheTable(void);

/// A block nothing points at: allocated, its address kept masked only.
uintptr_t mvt_makeUnreferenced(size_t size);
void mvt_freeMasked(uintptr_t masked);

/// The usable size of the malloc block at `block` (glibc's `malloc_usable_size`).
size_t mvt_usableSize(const void *block);
/// Allocates a block of `size` bytes, fills every word of it with `word` and
/// frees it: the next block of that size this thread allocates starts with
/// those stale words wherever its owner does not write.
void mvt_leaveStaleWords(size_t size, uintptr_t word);

/// Writes `word` at `address` (a block the test owns).
void mvt_writeWord(uintptr_t address, uintptr_t word);

#endif
