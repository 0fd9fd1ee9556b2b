#ifndef YYKIT_COPENJPEG_SHIM_H
#define YYKIT_COPENJPEG_SHIM_H
#include <openjpeg.h>
#endif
