// The inner loops of the heap model's scans, in C so that they run
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
  /// One word per 512 bytes of each region: in its low half the first
  /// block that starts at or after the bucket's start, in its high half a
  /// bit per 16 bytes of the bucket, set where a block starts.
  const uint64_t *buckets;
  const uintptr_t *starts;
  const uintptr_t *sizes;
  /// Whether every block starts 16-byte aligned (glibc's do), so that a
  /// set bit of a bucket's map is a block's start.
  bool aligned;
} MVBlockIndex;

/// Bytes of heap per bucket of the index, and per bit of a bucket's map
/// (glibc's blocks start 16-byte aligned).
#define MV_BUCKET_SHIFT 9
#define MV_GRANULE_SHIFT 4

/// Set on a block position when a pointer points into the middle of the block.
#define MV_INTERIOR_BIT ((uint32_t)1 << 31)

/// An edge's info word in the heap model's tables: its kind (one of
/// `MVEdgeKind`) in the bits of `MV_EDGE_KIND_MASK`, `MV_EDGE_ADMITTED` when
/// it is one of the references a Swift object's strong count leaves room
/// for, and its word position in its source shifted left by
/// `MV_EDGE_WORD_SHIFT`.
#define MV_EDGE_KIND_MASK 7u
#define MV_EDGE_ADMITTED 8u
#define MV_EDGE_WORD_SHIFT 4

/// `EdgeKind`'s raw values (BlockKind.swift; a test holds the two together).
enum {
  MVEdgeStrong = 0,
  MVEdgeUnowned = 1,
  MVEdgeWeak = 2,
  MVEdgeUnmanaged = 3,
  MVEdgeConservative = 4,
  MVEdgeBack = 5,
};

/// The block whose memory contains `address` exactly (no tags), or -1.
int64_t mv_findBlock(const MVBlockIndex *index, uintptr_t address);

/// The block that `value` points into (or -1), with `MV_INTERIOR_BIT` set
/// when it does not point within the block's first 8 bytes. A value with a
/// tag in its top byte (Swift enums keep one there) is looked up again
/// without it, unless its top two bits are both set (a reference count word).
int64_t mv_lookUp(const MVBlockIndex *index, uintptr_t value);


/// Scans `count` words of a root: for each that points into a block, writes
/// the word's position and the target (with its interior bit). Returns the number written.
size_t mv_scanRootWords(const MVBlockIndex *index, const uintptr_t *words, size_t count, uint32_t *positions,
                        uint32_t *targets);



/// The heap model's conservative read of part of one block: for each of
/// `count` words (the first at word `firstWord` of block `source`) that
/// points into a live block other than `source`, appends the target (with
/// `MV_INTERIOR_BIT` when it points into the middle) to `targets` and the
/// word's position in the block, shifted left by 4 and or'ed with `kind`, to
/// `infos`. Returns how many were appended.
size_t mv_scanConservative(const MVBlockIndex *index, const uintptr_t *words, size_t count, uint32_t source,
                           uint32_t firstWord, uint32_t kind, uint32_t *targets, uint32_t *infos);

/// What `mv_keepHeldEdges` does with an edge, by a block kind's entry in its
/// `rules` (one byte per kind): drop every edge into a block of the kind,
/// ask `rule` about each edge into one, ask `rule` about each edge out of one.
enum {
  MVEdgeRuleDropInto = 1,
  MVEdgeRuleAskInto = 2,
  MVEdgeRuleAskOutOf = 4,
};

/// Whether the edge from `source` to `target` (with its interior bit) holds
/// its target; may rewrite the edge's `info`.
typedef bool (*MVEdgeRule)(void *context, uint32_t source, uint32_t target, uint32_t *info);

/// The heap model's one pass over its forward edges (`outStart`: `blocks + 1`
/// entries, `targets` and `infos`) after they are read: drops the edges
/// `rules` and `rule` say hold nothing, compacting the tables in place;
/// counts each block's exact strong referrers to its start in
/// `exactStrongIn`, and each block's kept referrers in
/// `inCounts[block + 1]` (`blocks + 1` entries, zero on entry: the backward
/// index's counts, see `mv_countBackward`). Returns how many edges are kept.
size_t mv_keepHeldEdges(uint32_t *outStart, uint32_t *targets, uint32_t *infos, size_t blocks, const uint8_t *kinds,
                        const uint8_t *rules, uint32_t *exactStrongIn, uint32_t *inCounts, MVEdgeRule rule,
                        void *context);

/// What `mv_markWanted` found besides its marks.
typedef struct MVWantedFigures {
  /// Blocks with more exact strong referrers than their strong count.
  size_t overcounted;
  /// How many blocks it wrote to `uncounted` and `released`.
  size_t uncountedCount, releasedCount;
} MVWantedFigures;

/// Marks in `wanted` (one byte per block) the blocks whose referrers the
/// heap model's build asks for: every block but those of a kind `countedKinds`
/// marks (one byte per kind: the Swift objects) whose exact strong referrers
/// (`exactStrongIn`) account for their whole strong count (`strongCounts`;
/// `unknownCount` when none is known). Lists, in the same pass, those objects
/// with room for more referrers than the exact ones (`uncounted`) and those
/// whose strong count is zero (`released`); each list has room for every block.
MVWantedFigures mv_markWanted(const uint8_t *kinds, const uint8_t *countedKinds, const uint32_t *strongCounts,
                              const uint32_t *exactStrongIn, uint32_t unknownCount, size_t blocks, uint8_t *wanted,
                              uint32_t *uncounted, uint32_t *released);

/// The heap model's graph as its mark follows it.
typedef struct MVMarkGraph {
  /// The forward edges: `outStart` (a block's first edge), `targets` (with
  /// the interior bit), `infos` (see `MV_EDGE_KIND_MASK`).
  const uint32_t *outStart, *targets, *infos;
  /// Each block's kind, and per kind whether it is a Swift object (one byte).
  const uint8_t *kinds, *swiftKinds;
  /// The objects with a weak reference side table, sorted, and their tables.
  const uint32_t *sideTableObjects, *sideTables;
  size_t sideTableCount;
} MVMarkGraph;

/// Marks in `marked` (a bit per block) every block reachable from the
/// `depth` blocks on `stack` (each marked already; the stack has room for
/// every block): along every edge but a side table's pointer back, and a
/// conservative or unmanaged one into a Swift object unless admitted (see
/// HeapModel+Mark.swift); an object holds its side table. Returns how many
/// blocks it marked.
size_t mv_mark(const MVMarkGraph *graph, uint64_t *marked, uint32_t *stack, size_t depth);

/// The heap model's backward index, in three steps. First the count of
/// edges into each block, in `inCounts[block + 1]`: as `mv_keepHeldEdges`
/// leaves them, or counted here from the forward edges (`targets`, grouped
/// by source with `outStart`, `blocks + 1` entries; `inCounts` zero on entry).
void mv_countBackward(const uint32_t *targets, const uint32_t *outStart, size_t blocks, uint32_t *inCounts);

/// Then turns those counts (in place) into each block's first slot, counting
/// only the blocks `wanted` marks (every block when `wanted` is NULL); returns
/// how many slots there are. Then `mv_fillBackward` fills them, grouped by
/// target in source order: `inSources` (the source, with the target's
/// interior bit) and `inEdges` (the forward position of each edge).
size_t mv_startBackward(uint32_t *inStart, size_t blocks, const uint8_t *wanted);
void mv_fillBackward(const uint32_t *targets, const uint32_t *outStart, size_t blocks, const uint8_t *wanted,
                     uint32_t *inStart, uint32_t *inSources, uint32_t *inEdges);

/// A heap walk's chunk tables (see MallocWalk.swift): address, size, flags,
/// second and first user word per chunk, `count` of them filled.
typedef struct MVChunkTables {
  // `keyWords` is NULL when the chunks' second words are not kept (see MallocWalk.swift).
  uintptr_t *addresses, *sizes, *keyWords, *firstWords;
  uint8_t *flags;
  size_t count;
} MVChunkTables;

/// The state of one heap's chunk walk (see MallocWalk.swift): the heap, the
/// chunk tables it appends to, and where it is.
typedef struct MVChunkWalk {
  // The heap and glibc's chunk layout (given by MallocLayout, the one home of its constants).
  uintptr_t end, top;
  bool topIsHere, stopsAtFencepost;
  uint8_t origin, tcacheCandidateFlag, inUseFlag;
  // The tcache key when known before the walk (0 if not): a chunk whose
  // second word is the key gets `keyedFlag`.
  uintptr_t tcacheKey;
  uint8_t keyedFlag;
  uintptr_t headerSize, minimumChunk, alignment, flagBits, previousInUse, tcacheChunkSize;
  // The tables, with room for `capacity` chunks.
  MVChunkTables tables;
  size_t capacity;
  /// The last chunk appended (its in-use bit is in the next one's header), or -1.
  int64_t previous;
  /// The next chunk to read.
  uintptr_t chunk;
} MVChunkWalk;

/// The chunk tables of a heap walk (see MallocFreeLists.swift), compacted in
/// place by `mv_keepLiveChunks`, and what it counted.
typedef struct MVLiveChunks {
  // The walk's tables, in address order; their first `kept` entries become the blocks.
  MVChunkTables tables;
  // glibc's chunk header, the walk's flag bits and a block's `internal` flag (given by MallocLayout and ChunkFlag).
  uintptr_t headerSize;
  uint8_t mmappedOrigin, inUseFlag, freeFlag, allocatorInternalFlag, internalBlockFlag;
  // Counted: chunks overlapping an earlier one (heaps walked while they
  // changed), chunks free in malloc's bins, and the live blocks' bytes.
  size_t overlapping, freeInBins;
  uintptr_t liveBytes;
} MVLiveChunks;

/// Keeps the chunks in use and on no free list as blocks, in place: a block's
/// entry is its user memory's address, its usable size, its origin and
/// internal flag, its first two words. Returns how many are kept.
size_t mv_keepLiveChunks(MVLiveChunks *chunks);

/// Fills the block index's `bucketCount` buckets of one region that starts at
/// `start` and holds blocks `first..<end` (see `MVBlockIndex`). Returns
/// whether every block starts on the 16-byte grid.
bool mv_fillBuckets(const uintptr_t *starts, size_t first, size_t end, uintptr_t start, size_t bucketCount,
                    uint64_t *buckets);

/// How `mv_walkChunks` stopped.
typedef enum MVChunkWalkStop {
  /// The next chunk's header or first user words are not in the window (or the heap ended).
  MVChunkWalkWindowEnd = 0,
  /// `chunk` is the heap's top chunk.
  MVChunkWalkTop = 1,
  /// `chunk` is a fencepost (the end of an arena's older heap).
  MVChunkWalkFencepost = 2,
  /// `chunk`'s header is not a chunk's.
  MVChunkWalkInconsistent = 3,
  /// The tables are full: grow them and call again.
  MVChunkWalkFull = 4,
} MVChunkWalkStop;

/// Walks chunks from `walk->chunk` while each one's header and first two
/// user words lie in the `count` bytes copied from `base`, appending each
/// to the tables; sets the previous chunk's in-use bit from each header.
MVChunkWalkStop mv_walkChunks(MVChunkWalk *walk, const uint8_t *window, uintptr_t base, size_t count);

#ifdef __cplusplus
}
#endif

#endif
