#ifndef CRASHTRAIL_CZSTD_SHIM_H
#define CRASHTRAIL_CZSTD_SHIM_H
// Zstandard (https://github.com/facebook/zstd, RFC 8878). crashtrail uses it only to compress the raw crash
// payloads `ingest` stores: at level 1 it is about 1.4 times as fast as libdeflate's fastest level on crash JSON
// and about 10% smaller (BENCHMARKS.md, Ingest). Payloads stored as zlib streams by older versions are still
// read back with plain zlib.
#include <zstd.h>
#endif
