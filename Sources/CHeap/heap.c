#include "heap.h"
#include <stdlib.h> /* defines __GLIBC__ through features.h */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>
size_t schemalab_heap_in_use(void) {
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}
void schemalab_heap_trim(void) { malloc_trim(0); }
#else
size_t schemalab_heap_in_use(void) { return 0; }
void schemalab_heap_trim(void) {}
#endif
