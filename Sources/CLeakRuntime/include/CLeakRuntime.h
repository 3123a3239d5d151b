#ifndef CLEAKRUNTIME_H
#define CLEAKRUNTIME_H

#include <stddef.h>

// Reference-count entry points exported by the Swift runtime (libswiftCore).
// The detector holds objects by their *unowned* count: it does not keep an
// object alive (deinit runs on time) and, unlike a weak reference, needs no
// side-table allocation. `swift_tryRetain` fails once deinit has begun.

/// Adds one unowned reference; returns `object`.
void *swift_unownedRetain(void *object);
/// Drops one unowned reference; frees the object's memory if it was the last.
void swift_unownedRelease(void *object);
/// Adds one strong reference unless the object is already deinitializing;
/// returns the object, or NULL if it is dead.
void *swift_tryRetain(void *object);
/// The strong retain count.
size_t swift_retainCount(void *object);

#endif
