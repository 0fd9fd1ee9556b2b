#ifndef YYKIT_CHEIF_SHIM_H
#define YYKIT_CHEIF_SHIM_H
#include <libheif/heif.h>
#endif
