#ifndef CMALLOC_H
#define CMALLOC_H

/* glibc's allocator settings (malloc.h), which Swift's Glibc module leaves out. */

#include <malloc.h>

/* One heap (arena) for every thread of the process: call it before a second thread starts.
   Returns 1 when set. */
static inline int tc_use_one_heap(void) { return mallopt(M_ARENA_MAX, 1); }

#endif
