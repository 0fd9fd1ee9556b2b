#ifndef YYKIT_CPNG_SHIM_H
#define YYKIT_CPNG_SHIM_H
#include <png.h>
#include <zlib.h>  // crc32 for APNG chunks
// Compound macros do not import into Swift; re-exported as constants.
static const png_uint_32 CPNG_FORMAT_RGBA = PNG_FORMAT_RGBA;
static const png_uint_32 CPNG_FORMAT_RGB = PNG_FORMAT_RGB;
#endif
