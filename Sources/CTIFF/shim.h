#ifndef YYKIT_CTIFF_SHIM_H
#define YYKIT_CTIFF_SHIM_H
#include <tiffio.h>
#endif
