#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver (compiler-rt, FuzzerDriver.cpp), linked in by -sanitize=fuzzer. SwiftPM links every
// executable on Linux with `--defsym main=<module>_main`, so libFuzzer's own `main` is never pulled in; each
// entry point's `@main` calls this instead, with the process arguments.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
