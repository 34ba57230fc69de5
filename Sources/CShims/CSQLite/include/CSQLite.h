#ifndef CSQLITE_H
#define CSQLITE_H

#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift cannot import: text and
   blobs bound through these are copied by SQLite before the call returns. */
int tc_sqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int length);
int tc_sqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length);

#endif
