/* ICU's data cut to what the server uses (scripts/icu-data, 34 MB -> 8 MB). `make release` writes
   icu-data.h (the data's symbol, icudtNN_dat) and icu-data.bin beside this file (not in git).
   Defined here, in an object the link takes before the libraries, the symbol keeps the member of
   Foundation's ICU archive holding the full data out of the link. In a debug build, or a release
   built without `make` (or by a compiler without C23's #embed), nothing is defined here and the
   full data is linked as before. */
#if defined(TC_CUT_ICU_DATA) && defined(__has_embed) && __has_include("icu-data.h")
#include "icu-data.h"
#pragma clang diagnostic ignored "-Wc23-extensions"
__attribute__((aligned(16))) const unsigned char TC_ICU_DATA_SYMBOL[] = {
#embed "icu-data.bin"
};
#else
/* A translation unit must declare something. */
typedef int tc_icu_data_is_toolchain_data;
#endif
