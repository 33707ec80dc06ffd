#ifndef CRASHTRAIL_CLIBDEFLATE_SHIM_H
#define CRASHTRAIL_CLIBDEFLATE_SHIM_H
// libdeflate (https://github.com/ebiggers/libdeflate) writes standard zlib streams (RFC 1950) two to three
// times faster than zlib at its fastest level, and a little smaller. crashtrail uses it only to compress raw
// crash payloads on ingest; everything it writes is read back with plain zlib.
#include <libdeflate.h>
#endif
