#ifndef SCHEMALAB_CHEAP_RESIDENT_H
#define SCHEMALAB_CHEAP_RESIDENT_H
#include <stdint.h>

/// The value in KiB of one field of /proc/self/status (`name` with its colon, such as
/// "VmRSS:"), or -1. Reads into a buffer on the stack and allocates nothing: the file's
/// length moves with the process's context-switch counts, and an allocation of that size
/// would shift the heap of everything allocated after it.
int64_t schemalab_status_kib(const char *name);

/// Writes "5" to /proc/self/clear_refs, which resets the kernel's peak resident size
/// (VmHWM) to the current one. Returns 1 when it could, else 0. Allocates nothing.
int schemalab_reset_peak_resident(void);
#endif
