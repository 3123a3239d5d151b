// The inner loops of MemoryView's conservative scans (see CMemoryViewScan.h).
#include "CMemoryViewScan.h"

#include <string.h>

static inline int64_t mv_find(const MVBlockIndex *index, uintptr_t value) {
  if (value < index->low || value >= index->high) return -1;
  size_t lower = 0, upper = index->regionCount;
  while (lower < upper) {
    size_t middle = (lower + upper) >> 1;
    if (index->regions[middle * 5 + 1] <= value) lower = middle + 1;
    else upper = middle;
  }
  if (lower == index->regionCount) return -1;
  const uintptr_t *region = &index->regions[lower * 5];
  uintptr_t start = region[0];
  if (value < start) return -1;
  size_t cursor = region[2], end = region[3];
  if (end - cursor > 1) cursor = index->buckets[region[4] + ((value - start) >> index->shift)];
  for (; cursor < end; cursor++) {
    uintptr_t blockStart = index->starts[cursor];
    if (blockStart > value) return -1;
    if (value - blockStart < index->sizes[cursor]) return (int64_t)cursor;
  }
  return -1;
}

int64_t mv_lookUp(const MVBlockIndex *index, uintptr_t value) {
  int64_t found = mv_find(index, value);
  if (found < 0) {
    if ((value >> 56) == 0 || (value >> 62) == 3) return -1;
    value &= 0x00FFFFFFFFFFFFFFULL;
    found = mv_find(index, value);
    if (found < 0) return -1;
  }
  return value - index->starts[found] < 8 ? found : (found | MV_INTERIOR_BIT);
}

size_t mv_scanBlockWords(const MVBlockIndex *index, const uintptr_t *words, size_t count, uint32_t source,
                         uint64_t *edges) {
  size_t written = 0;
  for (size_t position = 0; position < count; position++) {
    int64_t target = mv_lookUp(index, words[position]);
    if (target < 0 || (uint32_t)(target & ~MV_INTERIOR_BIT) == source) continue;
    edges[written++] = (uint64_t)source << 32 | (uint32_t)target;
  }
  return written;
}

size_t mv_scanRootWords(const MVBlockIndex *index, const uintptr_t *words, size_t count, uint32_t *positions,
                        uint32_t *targets) {
  size_t written = 0;
  for (size_t position = 0; position < count; position++) {
    int64_t target = mv_lookUp(index, words[position]);
    if (target < 0) continue;
    positions[written] = (uint32_t)position;
    targets[written++] = (uint32_t)target;
  }
  return written;
}

static bool mv_containsPair(const uint64_t *pairs, size_t count, uint64_t pair) {
  size_t lower = 0, upper = count;
  while (lower < upper) {
    size_t middle = (lower + upper) >> 1;
    if (pairs[middle] < pair) lower = middle + 1;
    else upper = middle;
  }
  return lower < count && pairs[lower] == pair;
}

size_t mv_dropEdges(uint64_t *edges, size_t count, const uint64_t *pairs, size_t pairCount, const uint64_t *isSource) {
  size_t kept = 0;
  for (size_t position = 0; position < count; position++) {
    uint64_t edge = edges[position];
    uint32_t source = (uint32_t)(edge >> 32);
    if ((isSource[source >> 6] >> (source & 63)) & 1) {
      if (mv_containsPair(pairs, pairCount, edge & ~(uint64_t)MV_INTERIOR_BIT)) continue;
    }
    edges[kept++] = edge;
  }
  return kept;
}

void mv_buildIndexes(const uint64_t *edges, size_t count, size_t blocks, uint32_t *offsets, uint32_t *sources,
                     uint32_t *forwardOffsets, uint32_t *targets, uint32_t *cursor) {
  memset(offsets, 0, (blocks + 1) * sizeof(uint32_t));
  memset(forwardOffsets, 0, (blocks + 1) * sizeof(uint32_t));
  memset(cursor, 0, blocks * sizeof(uint32_t));
  for (size_t position = 0; position < count; position++) {
    uint64_t edge = edges[position];
    offsets[(edge & ~(uint64_t)MV_INTERIOR_BIT & 0xFFFFFFFFu) + 1]++;
    forwardOffsets[(edge >> 32) + 1]++;
    targets[position] = (uint32_t)edge;  // in source order already, interior bit kept
  }
  for (size_t block = 0; block < blocks; block++) {
    offsets[block + 1] += offsets[block];
    forwardOffsets[block + 1] += forwardOffsets[block];
  }
  for (size_t position = 0; position < count; position++) {
    uint64_t edge = edges[position];
    uint32_t target = (uint32_t)(edge & ~(uint64_t)MV_INTERIOR_BIT);
    uint32_t interior = (uint32_t)edge & MV_INTERIOR_BIT;
    sources[offsets[target] + cursor[target]++] = (uint32_t)(edge >> 32) | interior;
  }
}
