// The Swift runtime's heap object layout on 64-bit Linux (Swift 6.3), in one
// place: the C code that retains objects safely (ObjectRetain.c) and the
// heap model (Sources/HeapModel) both read objects through these numbers.
//
// Sources of the numbers: swift/stdlib/public/SwiftShims/RefCount.h (the
// reference-count word), swift/ABI/MetadataValues.h (metadata kinds),
// swift/ABI/Metadata.h (class metadata without Objective-C interop), the
// standard library's storage classes (__ContiguousArrayStorageBase,
// __RawDictionaryStorage, __RawSetStorage, __StringStorage). Each was
// checked against a live process of this toolchain by the heap model's tests.
#ifndef LEAKLAB_SWIFT_OBJECT_LAYOUT_H
#define LEAKLAB_SWIFT_OBJECT_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

// MARK: Heap objects

enum {
  /// A heap object begins with its metadata pointer and its reference counts.
  SOLHeaderSize = 16,
  SOLMetadataOffset = 0,
  SOLRefCountsOffset = 8,
};

// MARK: Metadata kinds (the first word of heap metadata)

enum {
  SOLKindClass = 0,
  SOLKindHeapLocalVariable = 0x400,  // a closure context or a non-generic box
  SOLKindHeapGenericLocalVariable = 0x500,  // a generic box
  SOLKindErrorObject = 0x501,
  SOLKindTask = 0x502,
  SOLKindJob = 0x503,
};

// MARK: Class metadata (no Objective-C interop)

enum {
  SOLClassSuperclassOffset = 8,
  SOLClassInstanceSizeOffset = 24,  // 32 bits
  SOLClassDescriptionOffset = 40,
  /// A class context descriptor's kind, in the low five bits of its flags.
  SOLContextDescriptorKindClass = 16,
  SOLContextDescriptorNameOffset = 8,  // a relative pointer to the name
};

// MARK: Closure contexts and boxes

enum {
  /// Heap local variable metadata: the offset of the first capture (32 bits) at 8, the capture descriptor at 16.
  SOLHeapLocalCaptureDescriptorOffset = 16,
  /// Generic box metadata: the value's offset (32 bits) at 8, the boxed type's metadata at 16.
  SOLGenericBoxOffsetOffset = 8,
  SOLGenericBoxTypeOffset = 16,
};

// MARK: Native collection storage

enum {
  /// __ContiguousArrayStorageBase: count, capacity-and-flags, then the elements.
  SOLArrayCountOffset = 16,
  SOLArrayElementsOffset = 32,
  /// __RawDictionaryStorage and __RawSetStorage: count, capacity, scale (8 bits), seed, then arrays.
  SOLHashedCountOffset = 16,
  SOLHashedScaleOffset = 32,
  SOLHashedFirstArrayOffset = 48,  // keys (Dictionary) or elements (Set)
  SOLDictionaryValuesOffset = 56,
  SOLDictionaryBitmapOffset = 64,
  SOLSetBitmapOffset = 56,
  /// __StringStorage: capacity and flags (top bit: has breadcrumbs), count and flags, code units.
  SOLStringCapacityFlagsOffset = 16,
  SOLStringHeaderSize = 32,
};

// MARK: Reference counts (RefCount.h, 64-bit)

// bit 0: pure Swift deallocation; bits 1-31: unowned count; bit 32: deiniting;
// bits 33-62: strong extra count; bit 63: use slow RC. With bit 63 and bit 62
// set, the rest (shifted left by 3) is the side table's address; with bit 63
// and the low 32 bits all set, the object is immortal.
static const uint64_t SOLLowHalf = 0xFFFFFFFFull;
static const uint64_t SOLUnownedMask = 0xFFFFFFFEull;
static const uint64_t SOLDeiniting = 1ull << 32;
static const uint64_t SOLStrongShift = 33;
static const uint64_t SOLStrongMask = ((1ull << 30) - 1) << 33;
static const uint64_t SOLStrongOne = 1ull << 33;
static const uint64_t SOLUseSlowRC = 1ull << 63;
static const uint64_t SOLSideTableMark = 1ull << 62;
static const uint64_t SOLSideTableMask = (1ull << 62) - 1;

enum {
  /// A side table entry: the object, then (16 bytes in) its reference counts, then its weak count.
  SOLSideTableObjectOffset = 0,
  SOLSideTableBitsOffset = 16,
};

/// Whether the counts say the object is never freed (a static or immortal object).
static inline bool sol_isImmortal(uint64_t bits) {
  return (bits & SOLLowHalf) == SOLLowHalf && (bits & SOLUseSlowRC);
}

/// The side table the counts point to, or 0 when they are inline.
static inline uintptr_t sol_sideTable(uint64_t bits) {
  if (!(bits & SOLUseSlowRC) || sol_isImmortal(bits) || !(bits & SOLSideTableMark)) return 0;
  return (uintptr_t)((bits & SOLSideTableMask) << 3);
}

/// The strong count of inline (or side table) counts: the extra count plus one,
/// 0 once deinit began. Meaningless for immortal or side-table-mode words.
static inline uint32_t sol_strongCount(uint64_t bits) {
  if (bits & SOLDeiniting) return 0;
  return (uint32_t)((bits & SOLStrongMask) >> SOLStrongShift) + 1;
}

/// The unowned count of inline counts.
static inline uint32_t sol_unownedCount(uint64_t bits) { return (uint32_t)((bits & SOLUnownedMask) >> 1); }

/// Whether `bits` can be the counts of a live object: immortal, a side table,
/// or inline with an unowned count of at least one and not yet deiniting.
static inline bool sol_isPlausibleCounts(uint64_t bits) {
  if (sol_isImmortal(bits)) return true;
  if (bits & SOLUseSlowRC) return sol_sideTable(bits) != 0 && (sol_sideTable(bits) & 7) == 0;
  return sol_unownedCount(bits) >= 1;
}

#endif
