#ifndef YYKIT_CSQLITE_SHIM_H
#define YYKIT_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
