#ifndef CRASHTRAIL_CZLIB_SHIM_H
#define CRASHTRAIL_CZLIB_SHIM_H
#include <zlib.h>
#endif
