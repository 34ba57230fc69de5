#ifndef CBUILDINFO_H
#define CBUILDINFO_H

/* The commit the binary was built from, as `make` recorded it (git describe --always --dirty),
   or "" when it was built without make (swift build, swift test). */
const char *tc_build_commit(void);

#endif
