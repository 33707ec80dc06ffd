#ifndef CRASHTRAIL_CBROTLI_SHIM_H
#define CRASHTRAIL_CBROTLI_SHIM_H
// Brotli (RFC 7932), decoding only. `crashtrail serve` inflates request bodies sent with `Content-Encoding: br`, as
// Sentry's Python SDK sends them whenever the `brotli` module is installed beside it.
#include <brotli/decode.h>
#endif
