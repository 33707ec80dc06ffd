// Symbol fixture (C): crash entry points and the static functions they call. Everything is built with
// -fvisibility=hidden: kaboom_exception_what is the one exported symbol, the one a stripped binary keeps.
// Built by Tools/make-symbol-fixtures.sh. No system headers, so it compiles for Apple targets without an SDK.
// Line numbers matter: the expected symbolication in reference.json refers to them, so edit, then rebuild.

#include "fixture.h"

volatile int kaboom_sink;
volatile int kaboom_zero;

static inline __attribute__((always_inline)) int clamp_code(int code) {
    if (code < 0) {
        return 0;
    }
    return code > 9 ? 9 : code;
}

static inline __attribute__((always_inline)) int scaled_code(int code) {
    int clamped = clamp_code(code);
    return clamped * 3 + kaboom_zero;
}

static const char *const kaboom_messages[10] = {
    "ok", "bad access", "abort", "trap", "illegal instruction",
    "overflow", "division by zero", "assertion", "deadlock", "unknown",
};

static __attribute__((noinline)) const char *message_for(int code) {
    kaboom_sink = scaled_code(code);
    return kaboom_messages[clamp_code(code)];
}

__attribute__((visibility("default"))) const char *kaboom_exception_what(int code) {
    const char *message = message_for(code);
    kaboom_sink += 1;
    return message;
}

static __attribute__((noinline)) void write_through(volatile int *pointer, int value) {
    *pointer = value;
}

static __attribute__((noinline)) void crash_null_write(int value) {
    volatile int *pointer = (volatile int *)(long)kaboom_zero;
    write_through(pointer, scaled_code(value));
}

static __attribute__((noinline)) int divide(int numerator, int denominator) {
    return numerator / denominator;
}

static __attribute__((noinline)) void crash_divide(int value) {
    kaboom_sink = divide(value, kaboom_zero);
}

static __attribute__((noinline)) void crash_trap(int value) {
    if (scaled_code(value) >= 0) {
        __builtin_trap();
    }
}

typedef void (*crash_handler)(int);

static crash_handler const crash_handlers[3] = {crash_null_write, crash_divide, crash_trap};

void kaboom_dispatch(int kind, int value) {
    crash_handler handler = crash_handlers[(unsigned)kind % 3];
    handler(value);
    kaboom_sink = inline_checksum(value, kind);
}

int kaboom_recursive(int depth) {
    if (depth <= 0) {
        crash_trap(depth);
        return 0;
    }
    return kaboom_recursive(depth - 1) + (int)checksum_bytes("kaboom", 6);
}

int kaboom_run_all(int seed) {
    int total = 0;
    total += (int)kaboom_exception_what(seed)[0];
    total += kaboom_recursive(seed & 3);
    total += cpp_entry(seed);
    kaboom_dispatch(seed, total);
    return total;
}
