// The allocation recorder's table, as `leaklab` reads it out of a stopped
// process (`leaklab leaks --stacks`). The recorder (AllocationRecorder.c) is
// preloaded into the program; it publishes `leaklab_allocation_record`.
//
// Nothing in these tables looks like a pointer into the heap, so they never
// keep a block reachable: a block's address is stored inverted (`~address`,
// a kernel-half value), counts and ids are stored with the top bit set
// (`LLTag`, a non-canonical address), frames are return addresses (code).
// The regions are private anonymous mappings (mmap), never malloc blocks.
//
// The Swift reader (ProcessLeaks, RecordedAllocations.swift) mirrors this
// layout; change both together and bump `LLRecordVersion`.
#ifndef LEAKLAB_ALLOCATION_RECORD_H
#define LEAKLAB_ALLOCATION_RECORD_H

#include <stdint.h>

enum {
  /// The layout's version.
  LLRecordVersion = 1,
  /// The deepest stack kept (frames past it are dropped).
  LLMaxDepth = 64,
};

/// `LLSTACK1`: the record is initialised.
#define LLRecordMagic 0x314b434154534c4cULL
/// The bit every stored id or count carries.
#define LLTag (1ULL << 63)

/// The record the recorder publishes (a global of the preloaded library).
typedef struct LLRecord {
  uint64_t magic;
  uint64_t version;
  /// The block table (`LLBlockTable`), or 0 before the first allocation.
  uint64_t blockTable;
  /// The distinct stacks (`LLStackEntry[stackCount]`).
  uint64_t stacks;
  uint64_t stackCount;
  /// Every stack's frames, one after the other (return addresses).
  uint64_t frames;
  uint64_t frameCount;
  /// Allocations that could not be recorded (the recorder ran out of memory).
  uint64_t dropped;
} LLRecord;

/// One live block: its address inverted and its stack's id (tagged).
typedef struct LLBlockEntry {
  /// `~address`; 0 is an empty slot, 1 a freed one.
  uint64_t inverted;
  /// `LLTag | stack id`.
  uint64_t stack;
} LLBlockEntry;

/// An open-addressing table of live blocks (linear probing).
typedef struct LLBlockTable {
  /// `LLTag | capacity` (a power of two).
  uint64_t capacity;
  /// `LLTag | live entries`.
  uint64_t count;
  /// `LLTag | live and freed entries`.
  uint64_t used;
  uint64_t reserved;
  LLBlockEntry entries[];
} LLBlockTable;

/// One distinct stack.
typedef struct LLStackEntry {
  /// `LLTag | hash of the frames`.
  uint64_t hash;
  /// `LLTag | depth << 32 | index of the first frame`.
  uint64_t frames;
} LLStackEntry;

#endif
