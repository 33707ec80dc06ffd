// Counts the calling thread's allocations for crashtrail-record-bench, by interposing malloc, calloc and realloc
// in the benchmark executable only and forwarding to glibc's own entry points.
#include "CMallocCount.h"
#include <stddef.h>

#if defined(__linux__) && defined(__GLIBC__)
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);

static __thread uint64_t allocations;

void *malloc(size_t size) {
    allocations++;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    allocations++;
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    allocations++;
    return __libc_realloc(pointer, size);
}

uint64_t crashtrail_thread_allocations(void) { return allocations; }
int crashtrail_counts_allocations(void) { return 1; }
#else
uint64_t crashtrail_thread_allocations(void) { return 0; }
int crashtrail_counts_allocations(void) { return 0; }
#endif
