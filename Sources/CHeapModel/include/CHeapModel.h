// The heap model's step per block (HeapModel+Build.swift) for the blocks
// most heaps are made of, in C: a Swift object whose references sit at
// fixed offsets, a string's storage, malloc's own blocks. Every other block
// is left to the Swift step, which stays the reference for what a block of
// each kind holds.
#ifndef LEAKLAB_CHEAPMODEL_H
#define LEAKLAB_CHEAPMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "CMemoryViewScan.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A reference of a class at a fixed offset.
typedef struct HMSlot {
  int32_t offset;
  /// Its `MVEdgeKind`.
  uint8_t kind;
  /// A closure value: its context one word further, if its function pointer is set.
  bool isFunction;
} HMSlot;

/// What the builder knows of a type id.
typedef struct HMTypeInfo {
  /// The largest block an instance can be (see `largestBlock(for:metadata:foundation:)`).
  uint64_t largestBlock;
  /// Its slots in the slot table (`HMTypeSimple` only).
  uint32_t firstSlot, slotCount;
  /// Its `BlockKind`.
  uint8_t kind;
  /// `HMType…` flags.
  uint8_t flags;
} HMTypeInfo;

enum {
  /// Every reference of an instance is one of its slots (no enum, existential, opaque part or tail).
  HMTypeSimple = 1,
  /// A Swift heap object (a class instance, a closure context, a storage, a box, a task).
  HMTypeSwiftObject = 2,
  /// A string's storage: its breadcrumbs pointer is its one reference.
  HMTypeStringStorage = 4,
};

/// The state of the step per block: the tables it reads and writes.
typedef struct HMBlockReader {
  MVBlockIndex index;
  /// The blocks: start, usable size, flags (`internalFlag`: malloc's own).
  const uintptr_t *starts, *sizes;
  const uint8_t *flags;
  uint8_t internalFlag;
  /// The blocks whose kind is set before they are read (a bitmap): left to Swift.
  const uint64_t *presetBlocks;
  /// The classifier's direct-mapped cache of first words (`HM_RECENT_SLOTS` entries): a miss is left to Swift.
  const uintptr_t *recentFirstWords;
  const uint32_t *recentTypeIDs;
  /// Per type id, and the slots they point into.
  const HMTypeInfo *types;
  const HMSlot *slots;
  /// `BlockKind.allocator`'s raw value.
  uint8_t allocatorKind;
  /// The model's tables, written per block.
  uint8_t *kinds;
  uint32_t *typeIDs, *strongCounts, *outStart;
  /// The edge tables: `edgeCount` of `edgeCapacity` filled.
  uint32_t *targets, *infos;
  size_t edgeCount, edgeCapacity;
  /// The positions of the weak edges: `weakCount` of `weakCapacity` filled.
  uint32_t *weakEdges;
  size_t weakCount, weakCapacity;
  /// The objects whose counts are in a side table, and each table's
  /// address: `sideTableCount` of `sideTableCapacity` filled.
  uint32_t *sideTableObjects;
  uintptr_t *sideTables;
  size_t sideTableCount, sideTableCapacity;
  /// Counted: Swift objects read, exact edges written.
  size_t swiftObjects, exactEdges;
  /// Where `hm_readBlocks` stopped, and why.
  size_t position;
  uint8_t stop;
} HMBlockReader;

/// Why `hm_readBlocks` stopped.
enum {
  /// At `count`, or at a block that does not lie whole in the window.
  HMStopWindowEnd = 0,
  /// A table has no room for what the block may add: grow it and call again.
  HMStopFull = 1,
  /// The block's first word is not in the classifier's cache: classify it and call again.
  HMStopUnclassified = 2,
  /// The block is one the Swift step reads.
  HMStopSwift = 3,
};

/// Reads blocks from `reader->position` on while each lies whole in the
/// `length` bytes copied from `windowStart`: types each, records its strong
/// count (or its side table) and appends its references. Stops at `count`,
/// at the first block past the window or one it leaves to Swift, or when a
/// table is full (`reader->position` and `reader->stop` say which).
void hm_readBlocks(HMBlockReader *reader, const uint8_t *window, uintptr_t windowStart, size_t length, size_t count);

/// Whether `address` can be a Swift object's or its metadata's address: in
/// user space, past the first pages, 8-byte aligned.
static inline bool hm_isPlausibleObject(uintptr_t address) {
  return address >= 0x10000 && address < 0x0000800000000000ull && (address & 7) == 0;
}

/// Entries of the classifier's direct-mapped cache of first words.
#define HM_RECENT_SLOTS 4096

/// The entry of that cache a first word takes.
static inline size_t hm_recentSlot(uintptr_t first) {
  return (size_t)((first >> 4) ^ (first >> 16)) & (HM_RECENT_SLOTS - 1);
}

/// The edge an exact reference makes, if `word` points into a live block:
/// its target (with the interior bit) and its info word for `offset` (a
/// byte offset in its block) and `kind` (an `MVEdgeKind`; a reference into
/// a block's middle is not what its type says: a conservative word, unless
/// unmanaged). Returns false when it points into no block.
static inline bool hm_exactEdge(const MVBlockIndex *index, uintptr_t word, uint32_t offset, uint32_t kind,
                                uint32_t *target, uint32_t *info) {
  if (word < 0x10000) return false;
  int64_t found = mv_lookUp(index, word);
  if (found < 0) return false;
  *target = (uint32_t)found;
  if ((*target & MV_INTERIOR_BIT) && kind != MVEdgeUnmanaged) kind = MVEdgeConservative;
  *info = (offset / 8) << MV_EDGE_WORD_SHIFT | kind;
  return true;
}

/// Where a string storage's breadcrumbs pointer is (a byte offset into the
/// `size` bytes of the object at `bytes`), or -1 when it has none.
int64_t hm_breadcrumbsOffset(const uint8_t *bytes, size_t size);

#ifdef __cplusplus
}
#endif

#endif
