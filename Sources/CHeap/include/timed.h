#ifndef SCHEMALAB_TIMED_H
#define SCHEMALAB_TIMED_H

/// Calls `body(context)`. The lab runs every measured repetition's timed region through
/// this function, so that `valgrind --tool=callgrind --collect-atstart=no
/// --toggle-collect=schemalab_timed_region` counts exactly the instructions of the
/// timed region (a stable symbol; Swift's mangled names are not).
void schemalab_timed_region(void (*body)(void *), void *context);
#endif
