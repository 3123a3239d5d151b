// The heap model's step per block for the common blocks (see CHeapModel.h).
#include "CHeapModel.h"

#include <string.h>

#include "SwiftObjectLayout.h"

int64_t hm_breadcrumbsOffset(const uint8_t *bytes, size_t size) {
  if (size < SOLStringHeaderSize) return -1;
  uint64_t flags;
  memcpy(&flags, bytes + SOLStringCapacityFlagsOffset, 8);
  if ((flags >> 63) != 1) return -1;
  uint64_t capacity = flags & ((1ull << 48) - 1);
  uint64_t offset = SOLStringHeaderSize + ((capacity + 7) & ~(uint64_t)7);
  return offset + 8 <= size ? (int64_t)offset : -1;
}

/// Appends the reference `word` at byte `offset` of its block as an edge of
/// `kind`, when it points into a live block (the Swift step's EdgeSink.exact).
static inline void hm_exact(HMBlockReader *reader, uintptr_t word, uint32_t offset, uint32_t kind) {
  uint32_t target, info;
  if (!hm_exactEdge(&reader->index, word, offset, kind, &target, &info)) return;
  size_t position = reader->edgeCount++;
  reader->targets[position] = target;
  reader->infos[position] = info;
  if ((info & MV_EDGE_KIND_MASK) == MVEdgeWeak) reader->weakEdges[reader->weakCount++] = (uint32_t)position;
  reader->exactEdges++;
}

void hm_readBlocks(HMBlockReader *shared, const uint8_t *window, uintptr_t windowStart, size_t length, size_t count) {
  // The state in a local copy: a store to a byte table may alias anything
  // the compiler cannot see is private, and would make it read every
  // field again per block.
  HMBlockReader local = *shared;
  HMBlockReader *const reader = &local;
  const uintptr_t *const starts = reader->starts, *const sizes = reader->sizes;
  const uint8_t *const flags = reader->flags;
  const uint64_t *const presets = reader->presetBlocks;
  const HMTypeInfo *const types = reader->types;
  const uintptr_t windowEnd = windowStart + length;
  size_t position = reader->position;
  uint8_t stop = HMStopWindowEnd;
  for (; position < count; position++) {
    const uintptr_t start = starts[position], size = sizes[position];
    if (start < windowStart || start + size > windowEnd) break;
    stop = HMStopSwift;
    if (presets[position >> 6] & (1ull << (position & 63))) break;
    const uint8_t *const bytes = window + (start - windowStart);
    if (flags[position] & reader->internalFlag) {
      reader->outStart[position] = (uint32_t)reader->edgeCount;
      reader->kinds[position] = reader->allocatorKind;
      stop = HMStopWindowEnd;
      continue;
    }
    if (size < 8) {
      reader->outStart[position] = (uint32_t)reader->edgeCount;
      stop = HMStopWindowEnd;
      continue;
    }
    uintptr_t first;
    memcpy(&first, bytes, 8);
    if (!hm_isPlausibleObject(first)) break;
    // The classifier's cache (HeapModel+Classify.swift): a miss is Swift's.
    const size_t slot = hm_recentSlot(first);
    if (reader->recentFirstWords[slot] != first) {
      stop = HMStopUnclassified;
      break;
    }
    const uint32_t typeID = reader->recentTypeIDs[slot];
    const HMTypeInfo type = types[typeID];
    if (!(type.flags & HMTypeSwiftObject) || !(type.flags & (HMTypeSimple | HMTypeStringStorage))) break;
    uint64_t counts = 0;
    if (size >= 16) memcpy(&counts, bytes + 8, 8);
    // Not an object after all: Swift reads it as plain memory.
    if (!sol_isPlausibleCounts(counts) || size > type.largestBlock) break;
    // Room for every edge the block can add, or Swift grows the tables.
    const size_t most = (type.flags & HMTypeSimple) ? type.slotCount : 1;
    if (reader->edgeCount + most > reader->edgeCapacity || reader->weakCount + most > reader->weakCapacity
        || reader->sideTableCount == reader->sideTableCapacity) {
      stop = HMStopFull;
      break;
    }
    reader->outStart[position] = (uint32_t)reader->edgeCount;
    reader->typeIDs[position] = typeID;
    reader->kinds[position] = type.kind;
    reader->swiftObjects++;
    if (!sol_isImmortal(counts)) {
      const uintptr_t table = sol_sideTable(counts);
      if (table != 0) {
        reader->sideTableObjects[reader->sideTableCount] = (uint32_t)position;
        reader->sideTables[reader->sideTableCount++] = table;
      } else {
        reader->strongCounts[position] = sol_strongCount(counts);
      }
    }
    if (type.flags & HMTypeSimple) {
      const HMSlot *slots = reader->slots + type.firstSlot;
      for (uint32_t index = 0; index < type.slotCount; index++) {
        const uint32_t offset = (uint32_t)slots[index].offset;
        if (offset + 8 > size) continue;
        uintptr_t word;
        if (slots[index].isFunction) {
          // A closure's function pointer, then its context: `nil` keeps the pointer in the first page.
          uintptr_t function;
          if (offset + 16 > size) continue;
          memcpy(&function, bytes + offset, 8);
          if (function < 4096) continue;
          memcpy(&word, bytes + offset + 8, 8);
          hm_exact(reader, word, offset + 8, MVEdgeStrong);
        } else {
          memcpy(&word, bytes + offset, 8);
          hm_exact(reader, word, offset, slots[index].kind);
        }
      }
    } else {
      const int64_t offset = hm_breadcrumbsOffset(bytes, size);
      if (offset >= 0) {
        uintptr_t word;
        memcpy(&word, bytes + offset, 8);
        hm_exact(reader, word, (uint32_t)offset, MVEdgeStrong);
      }
    }
    stop = HMStopWindowEnd;
  }
  local.position = position;
  local.stop = position < count ? stop : HMStopWindowEnd;
  *shared = local;
}
