#include "timed.h"

__attribute__((noinline)) void schemalab_timed_region(void (*body)(void *), void *context) {
    body(context);
    __asm__ volatile("" ::: "memory"); /* keeps the call from becoming a tail call */
}
