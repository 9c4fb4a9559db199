#include "timed.h"

/* Nonzero while a timed region runs (on the thread that measures). */
static int schemalab_timing = 0;

__attribute__((noinline)) void schemalab_timed_region(void (*body)(void *), void *context) {
    schemalab_timing += 1;
    body(context);
    schemalab_timing -= 1;
    __asm__ volatile("" ::: "memory"); /* keeps the call from becoming a tail call */
}

__attribute__((noinline)) void schemalab_warmup_region(void (*body)(void *), void *context) {
    body(context);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void schemalab_untimed_span(void (*body)(void *), void *context) {
    body(context);
    __asm__ volatile("" ::: "memory"); /* keeps the call from becoming a tail call */
}

void schemalab_untimed_region(void (*body)(void *), void *context) {
    /* Only inside a timed region: callgrind's --toggle-collect flips collection, so a span
       entered outside one (a warm-up run) would switch it on. */
    if (schemalab_timing > 0) {
        schemalab_untimed_span(body, context);
    } else {
        body(context);
    }
}
