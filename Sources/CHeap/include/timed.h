#ifndef SCHEMALAB_TIMED_H
#define SCHEMALAB_TIMED_H

/// Calls `body(context)`. The lab runs every measured repetition's timed region through
/// this function, so that `valgrind --tool=callgrind --collect-atstart=no
/// --toggle-collect=schemalab_timed_region` counts exactly the instructions of the
/// timed region (a stable symbol; Swift's mangled names are not).
void schemalab_timed_region(void (*body)(void *), void *context);

/// Calls `body(context)`: a warm-up run, on the same Swift path as a timed region but not
/// collected, so that the path's first-use costs (the runtime instantiating type metadata and
/// looking up conformances, about 270,000 instructions) are paid before the counted run.
void schemalab_warmup_region(void (*body)(void *), void *context);

/// Runs `body(context)` inside the timed region but outside what is measured: a workload's
/// own preparation between timed steps (generating the next chunk of rows). The lab takes
/// its time out of the sample; inside a timed region the body runs through
/// `schemalab_untimed_span`, on which `--toggle-collect` switches callgrind's collection off.
void schemalab_untimed_region(void (*body)(void *), void *context);
void schemalab_untimed_span(void (*body)(void *), void *context);
#endif
