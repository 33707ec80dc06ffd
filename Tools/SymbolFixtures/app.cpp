// Symbol fixture (C++): namespaces, a class with methods (one virtual), a template instantiated twice, an
// always-inline helper inlined into a method that is inlined in turn, and calls between them.
// Built with -fno-exceptions -fno-rtti and no system headers.

#include "fixture.h"

namespace crashtrail {
namespace fixture {

static inline __attribute__((always_inline)) int square(int value) { return value * value; }

template <typename T> static inline __attribute__((always_inline)) T twice(T value) { return value + value; }

template <typename T> __attribute__((noinline)) T accumulate(const T *values, int count) {
    T total = T();
    for (int index = 0; index < count; index++) {
        total += twice(values[index]);
    }
    return total;
}

class Engine {
public:
    explicit Engine(int fuel) : fuel_(fuel) {}
    virtual ~Engine() {}

    __attribute__((noinline)) int ignite(int spark);
    virtual int burn(int amount);

    inline __attribute__((always_inline)) int remaining() const { return square(fuel_) - fuel_; }

private:
    int fuel_;
};

int Engine::ignite(int spark) {
    int heat = remaining() + spark;
    if (heat > 1000) {
        return burn(heat);
    }
    return heat + (int)checksum_bytes("engine", 6);
}

int Engine::burn(int amount) {
    fuel_ -= amount;
    return remaining();
}

class Turbo : public Engine {
public:
    explicit Turbo(int fuel) : Engine(fuel) {}
    int burn(int amount) override;
};

int Turbo::burn(int amount) { return Engine::burn(twice(amount)) + kaboom_exception_what(amount)[0]; }

namespace {

__attribute__((noinline)) int run_engine(Engine &engine, int spark) { return engine.ignite(spark) + engine.burn(spark); }

} // namespace

__attribute__((noinline)) long combine(int seed) {
    const int integers[4] = {seed, seed + 1, seed + 2, seed + 3};
    const long longs[3] = {seed * 7L, seed * 11L, seed * 13L};
    return accumulate(integers, 4) + accumulate(longs, 3);
}

} // namespace fixture
} // namespace crashtrail

extern "C" int cpp_entry(int seed) {
    crashtrail::fixture::Turbo turbo(seed);
    crashtrail::fixture::Engine engine(seed * 2);
    int total = crashtrail::fixture::run_engine(turbo, seed) + crashtrail::fixture::run_engine(engine, seed);
    return total + (int)crashtrail::fixture::combine(seed);
}
