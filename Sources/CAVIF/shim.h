#ifndef YYKIT_CAVIF_SHIM_H
#define YYKIT_CAVIF_SHIM_H
#include <avif/avif.h>
#endif
