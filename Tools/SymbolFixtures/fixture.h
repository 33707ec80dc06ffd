// Declarations shared by the C and C++ symbol fixtures (no system headers).

#ifndef SYMBOL_FIXTURE_H
#define SYMBOL_FIXTURE_H

#ifdef __cplusplus
extern "C" {
#endif

unsigned long checksum_bytes(const char *bytes, unsigned long count);
int inline_checksum(int value, int salt);
int cpp_entry(int seed);
__attribute__((visibility("default"))) const char *kaboom_exception_what(int code);
void kaboom_dispatch(int kind, int value);
int kaboom_recursive(int depth);
int kaboom_run_all(int seed);

#ifdef __cplusplus
}
#endif

#endif
