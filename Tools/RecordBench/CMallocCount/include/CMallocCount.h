#ifndef CMALLOCCOUNT_H
#define CMALLOCCOUNT_H
#include <stdint.h>

/// malloc, calloc and realloc calls made so far by the calling thread (0 where they cannot be counted).
uint64_t crashtrail_thread_allocations(void);

/// Whether allocations are counted on this platform (glibc).
int crashtrail_counts_allocations(void);

#endif
