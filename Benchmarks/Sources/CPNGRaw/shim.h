#include <png.h>
static const png_uint_32 RAW_PNG_FORMAT_RGBA = PNG_FORMAT_RGBA;
