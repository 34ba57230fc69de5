#include "CBuildInfo.h"

/* `make` writes commit.h beside this file (scripts/build-info; not in git) before it builds, and
   again only when the commit changed, so an unchanged tree builds nothing again. The header is
   this file's alone: the module's public header never changes, so no Swift module is rebuilt. */
#if __has_include("commit.h")
#include "commit.h"
#else
#define TC_BUILD_COMMIT ""
#endif

const char *tc_build_commit(void) { return TC_BUILD_COMMIT; }
