import CrashtrailTestSupport

@testable import CrashtrailEncoding

/// One random mutation of a body: a flipped bit, a replaced byte, a cut, or an inserted byte.
enum BodyMutation {
    /// One random mutation of a format version 2 body: of its structure three times in four, else of its raw column.
    static func mutate(_ body: inout TrailBodyEncoder.Body, using random: inout SplitMix64) {
        if Int.random(in: 0..<4, using: &random) == 0 {
            mutate(&body.raw, using: &random)
        } else {
            mutate(&body.structure, using: &random)
        }
    }

    static func mutate(_ body: inout [UInt8], using random: inout SplitMix64) {
        guard !body.isEmpty else {
            body.append(UInt8.random(in: 0...255, using: &random))
            return
        }
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            let bit = Int.random(in: 0..<(body.count * 8), using: &random)
            body[bit / 8] ^= UInt8(1 << (bit % 8))
        case 1: body[Int.random(in: 0..<body.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
        case 2: body.removeSubrange(Int.random(in: 0..<body.count, using: &random)...)
        default: body.insert(UInt8.random(in: 0...255, using: &random), at: Int.random(in: 0...body.count, using: &random))
        }
    }
}
