// The inner loops of MemoryView's conservative scans, in C so that they run
// at a useful speed in debug builds too (Swift at -Onone checks every access).
#ifndef LEAKLAB_CMEMORYVIEWSCAN_H
#define LEAKLAB_CMEMORYVIEWSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A block table and its lookup index (see BlockIndex.swift), by pointer.
typedef struct MVBlockIndex {
  uintptr_t low, high;
  /// Five words per region: start, end, first block, end block, first bucket.
  const uintptr_t *regions;
  size_t regionCount;
  const uint32_t *buckets;
  const uintptr_t *starts;
  const uintptr_t *sizes;
  unsigned shift;
} MVBlockIndex;

/// Set on a block position when a pointer points into the middle of the block.
#define MV_INTERIOR_BIT ((uint32_t)1 << 31)

/// The block that `value` points into (or -1), with `MV_INTERIOR_BIT` set
/// when it does not point within the block's first 8 bytes. A value with a
/// tag in its top byte (Swift enums keep one there) is looked up again
/// without it, unless its top two bits are both set (a reference count word).
int64_t mv_lookUp(const MVBlockIndex *index, uintptr_t value);

/// Scans `count` words of block `source`: for each that points into another
/// block, writes `source << 32 | target` (target with its interior bit) into
/// `edges`, which has room for `count`. Returns the number written.
size_t mv_scanBlockWords(const MVBlockIndex *index, const uintptr_t *words, size_t count, uint32_t source,
                         uint64_t *edges);

/// Scans `count` words of a root: for each that points into a block, writes
/// the word's position and the target (with its interior bit). Returns the number written.
size_t mv_scanRootWords(const MVBlockIndex *index, const uintptr_t *words, size_t count, uint32_t *positions,
                        uint32_t *targets);

/// Removes from `edges` every edge whose `source << 32 | target` (interior
/// bit cleared) is in `pairs` (sorted); `isSource` is a bitmap of the
/// sources that appear in `pairs`. Returns the new count.
size_t mv_dropEdges(uint64_t *edges, size_t count, const uint64_t *pairs, size_t pairCount, const uint64_t *isSource);

/// Builds both indexes of `edges` (in source order): `offsets`/`sources`
/// by target and `forwardOffsets`/`targets` by source. The offset tables
/// have `blocks + 1` entries; `cursor` is `blocks` entries of scratch.
void mv_buildIndexes(const uint64_t *edges, size_t count, size_t blocks, uint32_t *offsets, uint32_t *sources,
                     uint32_t *forwardOffsets, uint32_t *targets, uint32_t *cursor);

#ifdef __cplusplus
}
#endif

#endif
