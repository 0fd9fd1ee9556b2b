#ifndef YYKIT_CTURBOJPEG_SHIM_H
#define YYKIT_CTURBOJPEG_SHIM_H
#include <turbojpeg.h>
#endif
