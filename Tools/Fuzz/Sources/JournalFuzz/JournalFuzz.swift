@_spi(Fuzzing) import CrashtrailCore
import CrashtrailRecording
import FuzzDriver
import FuzzSupport

/// Journal recovery (SPEC section 10): any bytes are refused with a `JournalError` or recovered; a recovered trail
/// keeps within the journal's limits, replays from its base to its final, reads back from its canonical JSON, and
/// the damage it reports lies inside the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(fuzzInput(data, size))
    guard let recovered = try? TrailJournal.recover(bytes, path: "fuzz.ctj") else { return 0 }
    let trail = recovered.trail
    fuzzRequire(trail.steps.count <= recovered.limits.maximumSteps, "more steps kept than the journal's limits allow")
    fuzzRequire(trail.steps.count <= recovered.records, "more steps than intact records")
    fuzzRequire(recovered.headerSize <= bytes.count && recovered.fileSize == bytes.count, "sizes outside the input")
    if let damage = recovered.damage {
        fuzzRequire(
            damage.offset >= recovered.headerSize && damage.offset + damage.droppedBytes == bytes.count, "damage outside the records")
    }
    fuzzRequire(trail.replayedState(with: recovered.manifest) == trail.final, "the recovered trail does not replay to its final")
    do {
        let again = try Trail(json: trail.canonicalJSON)
        fuzzRequire(again == trail, "the recovered trail's canonical JSON reads back differently")
    } catch {
        fuzzRequire(false, "the recovered trail's canonical JSON is refused: \(error)")
    }
    return 0
}

@main
enum JournalFuzzer {
    static func main() { runLibFuzzer(fuzz) }
}
