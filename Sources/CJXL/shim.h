#ifndef YYKIT_CJXL_SHIM_H
#define YYKIT_CJXL_SHIM_H
#include <jxl/decode.h>
#include <jxl/encode.h>
#endif
