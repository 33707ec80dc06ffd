// Symbol fixture (C): static and always-inline helpers, nested three and four deep, so the DWARF holds
// chains of DW_TAG_inlined_subroutine with call sites in this file and in the header-free helpers above them.

#include "fixture.h"

volatile unsigned long inline_state;

static inline __attribute__((always_inline)) unsigned long rotate(unsigned long value, unsigned shift) {
    return (value << shift) | (value >> (64 - shift));
}

static inline __attribute__((always_inline)) unsigned long mix_byte(unsigned long hash, unsigned char byte) {
    hash ^= byte;
    hash *= 0x100000001b3UL;
    return rotate(hash, 5);
}

static inline __attribute__((always_inline)) unsigned long mix_word(unsigned long hash, unsigned long word) {
    hash = mix_byte(hash, (unsigned char)(word & 0xff));
    hash = mix_byte(hash, (unsigned char)((word >> 8) & 0xff));
    return hash + inline_state;
}

static inline __attribute__((always_inline)) unsigned long finish(unsigned long hash) {
    hash = mix_word(hash, hash >> 17);
    return rotate(hash, 13) ^ (hash >> 31);
}

unsigned long checksum_bytes(const char *bytes, unsigned long count) {
    unsigned long hash = 0xcbf29ce484222325UL;
    for (unsigned long index = 0; index < count; index++) {
        hash = mix_byte(hash, (unsigned char)bytes[index]);
    }
    return finish(hash);
}

static __attribute__((noinline)) unsigned long checksum_word(unsigned long word) {
    return finish(mix_word(0xcbf29ce484222325UL, word));
}

static int table_lookup(int index) {
    static const int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
    return table[index & 7] + (int)inline_state;
}

static __attribute__((noinline)) int walk_table(int start, int steps) {
    int total = 0;
    for (int step = 0; step < steps; step++) {
        total += table_lookup(start + step);
    }
    return total;
}

int inline_checksum(int value, int salt) {
    unsigned long word = checksum_word((unsigned long)value);
    int walked = walk_table(salt, value & 15);
    return (int)(word & 0xffff) + walked;
}
