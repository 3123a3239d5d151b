// The inner loops of MemoryView's conservative scans (see CMemoryViewScan.h).
#include "CMemoryViewScan.h"

#include <string.h>

// The lookups count a bucket's bits (`__builtin_popcount`): on x86-64 they
// are built twice, and the loader picks the build with the POPCNT
// instruction where the CPU has it (the baseline has none, and counts in
// a dozen instructions: a fifth of the heap model's lookups). Not under
// ThreadSanitizer, whose runtime is not ready when the loader asks.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MV_NO_CLONES 1
#endif
#endif
#if defined(__x86_64__) && !defined(MV_NO_CLONES)
#define MV_LOOKUP_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define MV_LOOKUP_CLONES
#endif

// The block containing `value`, with MV_INTERIOR_BIT set unless `value`
// lies in its first 8 bytes; -1 when no block contains it.
__attribute__((always_inline)) static inline int64_t mv_find(const MVBlockIndex *index, uintptr_t value) {
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
  uintptr_t offset = value - start;
  // A region of one block (a chunk of its own mapping) has no buckets.
  if (region[3] - region[2] == 1) return (int64_t)region[2] | (offset < 8 ? 0 : MV_INTERIOR_BIT);
  // The blocks that start in the bucket at or before `value` are counted
  // from its map: the last of them, or else the block before the bucket,
  // is the only one that can contain `value`. When `value` lies in a
  // block's first 16 bytes, no start or size is read: no table to bring in
  // from memory per lookup but the bucket.
  uint64_t bucket = index->buckets[region[4] + (offset >> MV_BUCKET_SHIFT)];
  unsigned granule = (unsigned)(offset >> MV_GRANULE_SHIFT) & 31;
  uint32_t map = (uint32_t)(bucket >> 32) & (uint32_t)(((uint64_t)2 << granule) - 1);
  size_t cursor = (size_t)(uint32_t)bucket + (size_t)__builtin_popcount(map);
  if (cursor == region[2]) return -1;
  cursor--;
  if ((map >> granule) && index->aligned) return (int64_t)cursor | ((offset & 15) < 8 ? 0 : MV_INTERIOR_BIT);
  uintptr_t blockStart = index->starts[cursor];
  if (value < blockStart) {
    // Only when a block starts off the 16-byte grid, in `value`'s 16 bytes.
    if (cursor == region[2]) return -1;
    blockStart = index->starts[--cursor];
  }
  if (value - blockStart >= index->sizes[cursor]) return -1;
  return (int64_t)cursor | (value - blockStart < 8 ? 0 : MV_INTERIOR_BIT);
}

MV_LOOKUP_CLONES int64_t mv_findBlock(const MVBlockIndex *index, uintptr_t address) {
  int64_t found = mv_find(index, address);
  return found < 0 ? -1 : (found & ~(int64_t)MV_INTERIOR_BIT);
}

MV_LOOKUP_CLONES int64_t mv_lookUp(const MVBlockIndex *index, uintptr_t value) {
  int64_t found = mv_find(index, value);
  if (found >= 0 || (value >> 56) == 0 || (value >> 62) == 3) return found;
  return mv_find(index, value & 0x00FFFFFFFFFFFFFFULL);
}

MV_LOOKUP_CLONES size_t mv_scanRootWords(const MVBlockIndex *index, const uintptr_t *words, size_t count, uint32_t *positions,
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

MV_LOOKUP_CLONES size_t mv_scanConservative(const MVBlockIndex *index, const uintptr_t *words, size_t count, uint32_t source,
                           uint32_t firstWord, uint32_t kind, uint32_t *targets, uint32_t *infos) {
  size_t written = 0;
  for (size_t position = 0; position < count; position++) {
    int64_t target = mv_lookUp(index, words[position]);
    if (target < 0 || (uint32_t)(target & ~MV_INTERIOR_BIT) == source) continue;
    targets[written] = (uint32_t)target;
    infos[written++] = (firstWord + (uint32_t)position) << MV_EDGE_WORD_SHIFT | kind;
  }
  return written;
}

size_t mv_keepHeldEdges(uint32_t *outStart, uint32_t *targets, uint32_t *infos, size_t blocks, const uint8_t *kinds,
                        const uint8_t *rules, uint32_t *exactStrongIn, uint32_t *inCounts, MVEdgeRule rule,
                        void *context) {
  size_t written = 0;
  for (size_t source = 0; source < blocks; source++) {
    uint32_t begin = outStart[source], end = outStart[source + 1];
    if (begin != written) outStart[source] = (uint32_t)written;
    bool asksOutOf = (rules[kinds[source]] & MVEdgeRuleAskOutOf) != 0;
    for (uint32_t position = begin; position < end; position++) {
      uint32_t rawTarget = targets[position], target = rawTarget & ~MV_INTERIOR_BIT;
      uint32_t info = infos[position];
      uint8_t into = rules[kinds[target]];
      if (into & MVEdgeRuleDropInto) continue;
      if ((asksOutOf || (into & MVEdgeRuleAskInto)) && !rule(context, (uint32_t)source, rawTarget, &info)) continue;
      if (rawTarget == target && (info & MV_EDGE_KIND_MASK) == MVEdgeStrong) exactStrongIn[target]++;
      inCounts[target + 1]++;
      // Until an edge is dropped every edge stays where it is: not written
      // again, its cache line stays clean (20 MB at 10^6 objects).
      if (written != position || info != infos[position]) {
        targets[written] = rawTarget;
        infos[written] = info;
      }
      written++;
    }
  }
  outStart[blocks] = (uint32_t)written;
  return written;
}

size_t mv_startBackward(uint32_t *inStart, size_t blocks, const uint8_t *wanted) {
  inStart[0] = 0;
  if (wanted == NULL) {
    for (size_t block = 0; block < blocks; block++) inStart[block + 1] += inStart[block];
  } else {
    for (size_t block = 0; block < blocks; block++)
      inStart[block + 1] = inStart[block] + (wanted[block] ? inStart[block + 1] : 0);
  }
  return inStart[blocks];
}

MVWantedFigures mv_markWanted(const uint8_t *kinds, const uint8_t *countedKinds, const uint32_t *strongCounts,
                              const uint32_t *exactStrongIn, uint32_t unknownCount, size_t blocks, uint8_t *wanted,
                              uint32_t *uncounted, uint32_t *released) {
  MVWantedFigures figures = {0, 0, 0};
  for (size_t block = 0; block < blocks; block++) {
    uint32_t strong = strongCounts[block];
    bool counted = countedKinds[kinds[block]] != 0;
    uint8_t mark = 1;
    if (strong != unknownCount) {
      uint32_t found = exactStrongIn[block];
      figures.overcounted += found > strong;
      if (counted && strong <= found) mark = 0;
      if (counted && strong == 0) released[figures.releasedCount++] = (uint32_t)block;
    }
    if (counted && mark) uncounted[figures.uncountedCount++] = (uint32_t)block;
    wanted[block] = mark;
  }
  return figures;
}

static inline bool mv_markBlock(uint64_t *marked, uint32_t block) {
  uint64_t bit = (uint64_t)1 << (block & 63);
  if (marked[block >> 6] & bit) return false;
  marked[block >> 6] |= bit;
  return true;
}

size_t mv_mark(const MVMarkGraph *graph, uint64_t *marked, uint32_t *stack, size_t depth) {
  size_t count = 0;
  while (depth > 0) {
    uint32_t block = stack[--depth];
    if (graph->sideTableCount > 0) {
      size_t lower = 0, upper = graph->sideTableCount;
      while (lower < upper) {
        size_t middle = (lower + upper) >> 1;
        if (graph->sideTableObjects[middle] < block) lower = middle + 1;
        else upper = middle;
      }
      if (lower < graph->sideTableCount && graph->sideTableObjects[lower] == block) {
        uint32_t table = graph->sideTables[lower];
        if (mv_markBlock(marked, table)) {
          stack[depth++] = table;
          count++;
        }
      }
    }
    for (uint32_t position = graph->outStart[block]; position < graph->outStart[block + 1]; position++) {
      uint32_t target = graph->targets[position] & ~MV_INTERIOR_BIT;
      uint32_t info = graph->infos[position];
      uint32_t kind = info & MV_EDGE_KIND_MASK;
      if (kind == MVEdgeBack) continue;
      // Into a Swift object, only a reference its strong count leaves room for.
      if ((kind == MVEdgeConservative || kind == MVEdgeUnmanaged) && !(info & MV_EDGE_ADMITTED) &&
          graph->swiftKinds[graph->kinds[target]])
        continue;
      if (mv_markBlock(marked, target)) {
        stack[depth++] = target;
        count++;
      }
    }
  }
  return count;
}

void mv_countBackward(const uint32_t *targets, const uint32_t *outStart, size_t blocks, uint32_t *inCounts) {
  size_t count = outStart[blocks];
  for (size_t position = 0; position < count; position++) inCounts[(targets[position] & ~MV_INTERIOR_BIT) + 1]++;
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
  // The walk's state in locals: a store to its flags table (bytes, which may
  // alias anything) made the compiler read every field again per chunk.
  const uintptr_t end = walk->end, windowEnd = base + count, top = walk->top;
  const uintptr_t headerSize = walk->headerSize, minimumChunk = walk->minimumChunk, flagBits = walk->flagBits;
  const uintptr_t previousInUse = walk->previousInUse, tcacheChunkSize = walk->tcacheChunkSize;
  // glibc's alignment is a power of two: a mask, not a division per chunk.
  const uintptr_t alignment = walk->alignment, misaligned = alignment - 1;
  const bool topIsHere = walk->topIsHere, stopsAtFencepost = walk->stopsAtFencepost;
  const uint8_t origin = walk->origin, inUseFlag = walk->inUseFlag, tcacheCandidateFlag = walk->tcacheCandidateFlag;
  const uintptr_t tcacheKey = walk->tcacheKey;
  const uint8_t keyedFlag = tcacheKey != 0 ? walk->keyedFlag : 0;
  uintptr_t *const addresses = walk->tables.addresses, *const sizes = walk->tables.sizes;
  uintptr_t *const keyWords = walk->tables.keyWords, *const firstWords = walk->tables.firstWords;
  uint8_t *const flags = walk->tables.flags;
  const size_t capacity = walk->capacity;
  size_t filled = walk->tables.count;
  int64_t previous = walk->previous;
  uintptr_t chunk = walk->chunk;
  MVChunkWalkStop stop = MVChunkWalkWindowEnd;
  // A chunk is read here when its header (chunk + 8) is in the window, and
  // kept when its first two user words (to chunk + 32) are too.
  while (chunk + headerSize <= end && chunk + 8 >= base && chunk + 16 <= windowEnd) {
    uintptr_t header, firstWord, keyWord;
    memcpy(&header, window + (chunk + 8 - base), 8);
    uintptr_t size = header & ~flagBits;
    if (previous >= 0 && (header & previousInUse) != 0) flags[previous] |= inUseFlag;
    if (topIsHere ? chunk == top : (chunk + size == end || (size > end - chunk && (size & misaligned) == 0))) {
      stop = MVChunkWalkTop;
      break;
    }
    if (size == headerSize && stopsAtFencepost) {
      stop = MVChunkWalkFencepost;
      break;
    }
    if (size < minimumChunk || (size & misaligned) != 0 || size > end - chunk) {
      stop = MVChunkWalkInconsistent;
      break;
    }
    if (chunk + 32 > windowEnd) break;
    if (filled == capacity) {
      stop = MVChunkWalkFull;
      break;
    }
    memcpy(&firstWord, window + (chunk + 16 - base), 8);
    memcpy(&keyWord, window + (chunk + 24 - base), 8);
    size_t index = filled++;
    addresses[index] = chunk;
    sizes[index] = size;
    flags[index] =
        origin | (size == tcacheChunkSize ? tcacheCandidateFlag : 0) | (keyWord == tcacheKey ? keyedFlag : 0);
    if (keyWords) keyWords[index] = keyWord;
    firstWords[index] = firstWord;
    previous = (int64_t)index;
    chunk += size;
  }
  walk->tables.count = filled;
  walk->previous = previous;
  walk->chunk = chunk;
  return stop;
}

size_t mv_keepLiveChunks(MVLiveChunks *chunks) {
  uintptr_t *const addresses = chunks->tables.addresses, *const sizes = chunks->tables.sizes;
  uintptr_t *const keyWords = chunks->tables.keyWords, *const firstWords = chunks->tables.firstWords;
  uint8_t *const flags = chunks->tables.flags;
  const size_t count = chunks->tables.count;
  const uintptr_t headerSize = chunks->headerSize;
  const uint8_t mmapped = chunks->mmappedOrigin, inUse = chunks->inUseFlag, freeFlag = chunks->freeFlag;
  const uint8_t allocatorInternal = chunks->allocatorInternalFlag, internalBlock = chunks->internalBlockFlag;
  size_t kept = 0, overlapping = 0, freeInBins = 0;
  uintptr_t end = 0, liveBytes = 0;
  for (size_t index = 0; index < count; index++) {
    // Everything of the chunk is read before its entry may be overwritten.
    const uintptr_t address = addresses[index], size = sizes[index];
    const uint8_t flag = flags[index];
    // Heaps walked while they change can overlap (one grew into the range
    // another was found in): the blocks stay in address order, each after
    // the last, or the scan and the index would misread them.
    if (address < end) {
      overlapping++;
      continue;
    }
    if ((flag & inUse) == 0) {
      freeInBins++;
      continue;
    }
    if (flag & freeFlag) continue;
    const uint8_t origin = flag & 3;
    const uintptr_t usable = size - (origin == mmapped ? headerSize : 8);
    end = address + size;
    addresses[kept] = address + headerSize;
    sizes[kept] = usable;
    firstWords[kept] = firstWords[index];
    if (keyWords) keyWords[kept] = keyWords[index];
    flags[kept] = origin | ((flag & allocatorInternal) ? internalBlock : 0);
    liveBytes += usable;
    kept++;
  }
  chunks->overlapping += overlapping;
  chunks->freeInBins += freeInBins;
  chunks->liveBytes = liveBytes;
  return kept;
}

bool mv_fillBuckets(const uintptr_t *starts, size_t first, size_t end, uintptr_t start, size_t bucketCount,
                    uint64_t *buckets) {
  size_t cursor = first;
  uintptr_t misaligned = 0;
  for (size_t bucket = 0; bucket < bucketCount; bucket++) {
    const uintptr_t bucketEnd = start + ((uintptr_t)(bucket + 1) << MV_BUCKET_SHIFT);
    uint64_t entry = (uint64_t)cursor;
    while (cursor < end && starts[cursor] < bucketEnd) {
      const uintptr_t offset = starts[cursor] - start;
      misaligned |= offset;
      entry |= (uint64_t)1 << (32 + ((offset >> MV_GRANULE_SHIFT) & 31));
      cursor++;
    }
    buckets[bucket] = entry;
  }
  return (misaligned & (((uintptr_t)1 << MV_GRANULE_SHIFT) - 1)) == 0;
}
