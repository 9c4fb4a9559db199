#ifndef SCHEMALAB_CHEAP_H
#define SCHEMALAB_CHEAP_H
#include <stddef.h>

/// Bytes the process's malloc has handed out and not freed (glibc mallinfo2:
/// uordblks + hblkhd), or 0 where mallinfo2 is not available.
size_t schemalab_heap_in_use(void);
#endif
