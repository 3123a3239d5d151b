// Declarations only: the functions live in the Swift runtime.
#include "CLeakRuntime.h"
