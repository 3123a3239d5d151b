// Retaining, or following a weak reference to, an object that another thread
// may free at any moment.
//
// `swift_tryRetain` and `swift_weakLoadStrong` trust their argument: handed
// memory that stopped being an object (freed, reused) they follow whatever
// its refcount word now says, and fault or corrupt the heap. Here every byte
// is first copied with `process_vm_readv` (never faults) and checked against
// the runtime's refcount layout (swift/stdlib/public/SwiftShims/RefCount.h,
// 64-bit): bit 0 pure-Swift dealloc, bits 1-31 unowned count, bit 32
// deiniting, bits 33-62 strong extra count, bit 63 "use slow RC" (a side table
// pointer, shifted right by 3, with bit 62 as its mark; or, with bits 0-31
// all set, immortal). The only write is one compare-and-swap that adds a
// strong reference if, and only if, the refcount word still holds exactly
// the live value just read: on freed or reused memory it fails instead of
// writing. The object is then read again, while held, and must still have the
// expected metadata; otherwise the reference is given back.
#include "CRemoteMirror.h"

#include "SwiftObjectLayout.h"

static const uint64_t RMUnownedMask = SOLUnownedMask;
static const uint64_t RMDeiniting = SOLDeiniting;
static const uint64_t RMStrongMask = SOLStrongMask;
static const uint64_t RMStrongOne = SOLStrongOne;
static const uint64_t RMUseSlowRC = SOLUseSlowRC;
static const uintptr_t RMSideTableBitsOffset = SOLSideTableBitsOffset;

static bool rm_isImmortal(uint64_t bits) { return sol_isImmortal(bits); }

// A live count that can take one more strong reference on the fast path.
static bool rm_canIncrement(uint64_t bits) {
  return !(bits & RMUseSlowRC) && !(bits & RMDeiniting) && (bits & RMUnownedMask) != 0
    && (bits & RMStrongMask) != RMStrongMask;
}

static uintptr_t rm_sideTable(uint64_t bits) { return sol_sideTable(bits); }

// Reads the object's header and finds the word that holds its strong count:
// the object's own refcount word, or its side table's. 0 when `address` is not
// a live object with `metadata` (or is immortal: `*immortal` is set).
static uintptr_t rm_countWord(uintptr_t address, uintptr_t metadata, uint64_t *bits, bool *immortal) {
  uint64_t header[2];
  *immortal = false;
  if (rm_read(address, header, sizeof header, true) != sizeof header || header[0] != metadata) return 0;
  if (rm_isImmortal(header[1])) {
    *immortal = true;
    return 0;
  }
  uintptr_t side = rm_sideTable(header[1]);
  if (side == 0) {
    *bits = header[1];
    return rm_canIncrement(header[1]) ? address + 8 : 0;
  }
  uint64_t entry[3];
  if ((side & 15) != 0 || rm_read(side, entry, sizeof entry, true) != sizeof entry || entry[0] != address)
    return 0;
  *bits = entry[2];
  return rm_canIncrement(entry[2]) ? side + RMSideTableBitsOffset : 0;
}

// The compare-and-swap may be handed a word that was freed a moment ago (and
// then fails, without writing): AddressSanitizer must not treat the attempt as
// a use after free. Every other access here goes through process_vm_readv.
#define RM_MAY_TOUCH_FREED_MEMORY __attribute__((no_sanitize("address")))

// Whether `address` holds a live, not deinitialising object with `metadata`
// whose counts are inline or in a side table that points back at it.
static bool rm_isLiveObject(uintptr_t address, uintptr_t metadata) {
  uint64_t header[2];
  if (rm_read(address, header, sizeof header, true) != sizeof header || header[0] != metadata) return false;
  if (rm_isImmortal(header[1])) return true;
  uintptr_t side = rm_sideTable(header[1]);
  if (side == 0) return !(header[1] & (RMUseSlowRC | RMDeiniting)) && (header[1] & RMUnownedMask) != 0;
  uint64_t entry[3];
  return (side & 15) == 0 && rm_read(side, entry, sizeof entry, true) == sizeof entry && entry[0] == address
    && !(entry[2] & (RMUseSlowRC | RMDeiniting));
}

// Gives back the strong reference added at `word`, as long as the word still
// shows it (a live count with at least one extra strong reference).
RM_MAY_TOUCH_FREED_MEMORY static void rm_giveBack(uintptr_t word) {
  uint64_t *target = (uint64_t *)word;
  uint64_t current = __atomic_load_n(target, __ATOMIC_RELAXED);
  while (!(current & (RMUseSlowRC | RMDeiniting)) && (current & RMStrongMask) != 0) {
    if (__atomic_compare_exchange_n(
          target, &current, current - RMStrongOne, true, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
      return;
  }
}

RM_MAY_TOUCH_FREED_MEMORY void *rm_retainIfLive(uintptr_t address, uintptr_t metadata) {
  if (address < 0x10000 || (address & 7) != 0 || metadata == 0) return NULL;
  uint64_t bits = 0;
  bool immortal = false;
  uintptr_t word = rm_countWord(address, metadata, &bits, &immortal);
  if (immortal) return (void *)address;  // never freed; a release of it does nothing
  if (word == 0) return NULL;
  uint64_t expected = bits;
  if (!__atomic_compare_exchange_n(
        (uint64_t *)word, &expected, bits + RMStrongOne, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
    return NULL;
  // Held now, if it is an object: it must still be a live one with `metadata`.
  // (Its counts may have moved to a new side table meanwhile, ours with them.)
  if (rm_isLiveObject(address, metadata)) return (void *)address;
  rm_giveBack(word);
  return NULL;
}

uintptr_t rm_weakTarget(uintptr_t weakReference) {
  uint64_t side = 0;
  if (rm_read(weakReference, &side, sizeof side, true) != sizeof side || side == 0 || (side & 15) != 0)
    return 0;
  uint64_t entry[3];
  if (rm_read((uintptr_t)side, entry, sizeof entry, true) != sizeof entry) return 0;
  // A weak reference to an object whose deinit began reads as nil.
  if ((entry[2] & RMDeiniting) || (entry[2] & RMUseSlowRC)) return 0;
  // The object must point back at this side table.
  uint64_t header[2];
  if (rm_read((uintptr_t)entry[0], header, sizeof header, true) != sizeof header) return 0;
  if (rm_sideTable(header[1]) != (uintptr_t)side) return 0;
  return (uintptr_t)entry[0];
}
