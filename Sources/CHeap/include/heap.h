#ifndef SCHEMALAB_CHEAP_H
#define SCHEMALAB_CHEAP_H
#include <stddef.h>

/// Bytes the process's malloc has handed out and not freed (glibc mallinfo2:
/// uordblks + hblkhd), or 0 where mallinfo2 is not available.
size_t schemalab_heap_in_use(void);

/// Returns the free memory of every malloc arena to the system (glibc malloc_trim(0)),
/// so that resident-set growth after it counts pages the next allocations touch anew;
/// a no-op where malloc_trim is not available.
void schemalab_heap_trim(void);
#endif
