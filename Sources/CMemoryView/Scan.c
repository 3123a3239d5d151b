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
  // The bucket's first block is the first that ends past the bucket's start:
  // of the blocks from there, only the last that starts at or before `value`
  // can contain it (blocks are sorted and apart, none empty). A reference to
  // a block's start is found without reading a size: one table less to
  // bring in from memory per lookup.
  size_t first = cursor;
  while (cursor < end && index->starts[cursor] <= value) cursor++;
  if (cursor == first) return -1;
  cursor--;
  uintptr_t blockStart = index->starts[cursor];
  return value == blockStart || value - blockStart < index->sizes[cursor] ? (int64_t)cursor : -1;
}

int64_t mv_findBlock(const MVBlockIndex *index, uintptr_t address) { return mv_find(index, address); }

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

size_t mv_scanConservative(const MVBlockIndex *index, const uintptr_t *words, size_t count, uint32_t source,
                           uint32_t firstWord, uint32_t kind, uint32_t *targets, uint32_t *infos) {
  size_t written = 0;
  for (size_t position = 0; position < count; position++) {
    int64_t target = mv_lookUp(index, words[position]);
    if (target < 0 || (uint32_t)(target & ~MV_INTERIOR_BIT) == source) continue;
    targets[written] = (uint32_t)target;
    infos[written++] = (firstWord + (uint32_t)position) << 4 | kind;
  }
  return written;
}

size_t mv_countBackward(const uint32_t *targets, const uint32_t *outStart, size_t blocks, const uint8_t *wanted,
                        uint32_t *inStart) {
  size_t count = outStart[blocks];
  if (wanted == NULL) {
    for (size_t position = 0; position < count; position++) inStart[(targets[position] & ~MV_INTERIOR_BIT) + 1]++;
  } else {
    for (size_t position = 0; position < count; position++) {
      uint32_t target = targets[position] & ~MV_INTERIOR_BIT;
      inStart[target + 1] += wanted[target];
    }
  }
  for (size_t block = 0; block < blocks; block++) inStart[block + 1] += inStart[block];
  return inStart[blocks];
}

void mv_fillBackward(const uint32_t *targets, const uint32_t *outStart, size_t blocks, const uint8_t *wanted,
                     uint32_t *inStart, uint32_t *inSources, uint32_t *inEdges) {
  // Each block's start serves as its cursor while its slots fill: it ends
  // at the next block's start, so the table is moved up one place after.
  for (size_t source = 0; source < blocks; source++) {
    for (uint32_t position = outStart[source]; position < outStart[source + 1]; position++) {
      uint32_t target = targets[position] & ~MV_INTERIOR_BIT;
      if (wanted != NULL && !wanted[target]) continue;
      uint32_t slot = inStart[target]++;
      inSources[slot] = (uint32_t)source | (targets[position] & MV_INTERIOR_BIT);
      inEdges[slot] = position;
    }
  }
  memmove(inStart + 1, inStart, blocks * sizeof(uint32_t));
  inStart[0] = 0;
}

MVChunkWalkStop mv_walkChunks(MVChunkWalk *walk, const uint8_t *window, uintptr_t base, size_t count) {
  const uintptr_t end = walk->end, windowEnd = base + count;
  uintptr_t chunk = walk->chunk;
  MVChunkWalkStop stop = MVChunkWalkWindowEnd;
  // A chunk is read here when its header (chunk + 8) is in the window, and
  // kept when its first two user words (to chunk + 32) are too.
  while (chunk + walk->headerSize <= end && chunk + 8 >= base && chunk + 16 <= windowEnd) {
    uintptr_t header, firstWord, keyWord;
    memcpy(&header, window + (chunk + 8 - base), 8);
    uintptr_t size = header & ~walk->flagBits;
    if (walk->previous >= 0 && (header & walk->previousInUse) != 0) walk->flags[walk->previous] |= walk->inUseFlag;
    if (walk->topIsHere ? chunk == walk->top
                        : (chunk + size == end || (size > end - chunk && size % walk->alignment == 0))) {
      stop = MVChunkWalkTop;
      break;
    }
    if (size == walk->headerSize && walk->stopsAtFencepost) {
      stop = MVChunkWalkFencepost;
      break;
    }
    if (size < walk->minimumChunk || size % walk->alignment != 0 || size > end - chunk) {
      stop = MVChunkWalkInconsistent;
      break;
    }
    if (chunk + 32 > windowEnd) break;
    if (walk->count == walk->capacity) {
      stop = MVChunkWalkFull;
      break;
    }
    memcpy(&firstWord, window + (chunk + 16 - base), 8);
    memcpy(&keyWord, window + (chunk + 24 - base), 8);
    size_t index = walk->count++;
    walk->addresses[index] = chunk;
    walk->sizes[index] = size;
    walk->flags[index] = walk->origin | (size == walk->tcacheChunkSize ? walk->tcacheCandidateFlag : 0);
    walk->keyWords[index] = keyWord;
    walk->firstWords[index] = firstWord;
    walk->previous = (int64_t)index;
    chunk += size;
  }
  walk->chunk = chunk;
  return stop;
}
