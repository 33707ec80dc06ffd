// Symbol fixture (Swift), compiled with -parse-stdlib for an Apple target without an SDK: only Builtin is available
// (no literals, no assignment, no Bool), which is enough for mangled names, a struct with methods, a closure and
// chains of inlined functions. Built by Tools/make-symbol-fixtures.sh; reference.json refers to its line numbers.

@inline(__always)
private func rotate(_ value: Builtin.Int64, _ shift: Builtin.Int64) -> Builtin.Int64 {
    Builtin.or_Int64(Builtin.shl_Int64(value, shift), Builtin.lshr_Int64(value, Builtin.sub_Int64(shift, value)))
}

@inline(__always)
private func mix(_ hash: Builtin.Int64, _ value: Builtin.Int64) -> Builtin.Int64 {
    rotate(Builtin.add_Int64(Builtin.mul_Int64(hash, value), Builtin.xor_Int64(hash, value)), value)
}

@inline(__always)
private func finish(_ hash: Builtin.Int64, _ salt: Builtin.Int64) -> Builtin.Int64 {
    mix(rotate(hash, salt), Builtin.lshr_Int64(hash, salt))
}

@inline(never)
public func checksum(_ first: Builtin.Int64, _ second: Builtin.Int64) -> Builtin.Int64 {
    finish(mix(mix(second, first), second), first)
}

@inline(never)
public func trap(_ value: Builtin.Int64, _ limit: Builtin.Int64) -> Builtin.Int64 {
    Builtin.condfail_message(Builtin.cmp_ugt_Int64(value, limit), Builtin.inttoptr_Int64(limit))
    return checksum(value, limit)
}

public struct Gauge {
    let level: Builtin.Int64
    let scale: Builtin.Int64

    @inline(__always)
    func doubled() -> Builtin.Int64 {
        Builtin.add_Int64(level, finish(scale, level))
    }

    @inline(never)
    public func reading(offset: Builtin.Int64) -> Builtin.Int64 {
        checksum(doubled(), offset)
    }

    @inline(never)
    public func overflowed(by amount: Builtin.Int64) -> Gauge {
        Gauge(level: mix(level, amount), scale: trap(reading(offset: amount), scale))
    }
}

@inline(never)
public func transform(_ body: (Builtin.Int64) -> Builtin.Int64, _ value: Builtin.Int64, _ salt: Builtin.Int64) -> Builtin.Int64 {
    body(mix(value, salt))
}

@inline(never)
public func crashInClosure(_ seed: Builtin.Int64, _ limit: Builtin.Int64) -> Builtin.Int64 {
    transform({ value in trap(checksum(value, seed), limit) }, seed, limit)
}

@inline(never)
public func runAll(_ seed: Builtin.Int64, _ scale: Builtin.Int64) -> Builtin.Int64 {
    let gauge = Gauge(level: seed, scale: scale)
    let read = gauge.reading(offset: scale)
    let overflowed = gauge.overflowed(by: read)
    return Builtin.add_Int64(crashInClosure(overflowed.level, overflowed.scale), finish(read, seed))
}
