/* The shim is its header: a C target needs one source file. */
#include "CMalloc.h"
