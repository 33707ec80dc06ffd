#ifndef CRASHTRAIL_CZLIB_SHIM_H
#define CRASHTRAIL_CZLIB_SHIM_H
#include <zlib.h>

// Swift cannot import zlib's function-like macros (deflateInit2, inflateInit2), which pass the library version
// and the stream's size so zlib can check them. These wrappers do the same under names Swift can call.

static inline int crashtrail_deflateInit2(z_streamp stream, int level, int method, int windowBits, int memLevel,
                                          int strategy) {
    return deflateInit2(stream, level, method, windowBits, memLevel, strategy);
}

static inline int crashtrail_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

#endif
