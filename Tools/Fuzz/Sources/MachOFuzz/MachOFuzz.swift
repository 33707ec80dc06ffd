@_spi(Fuzzing) import CrashtrailSymbols
import FuzzDriver
import FuzzSupport

/// Fuzzes the Mach-O reader that `crashtrail symbols add` and the debug-file upload read dSYMs and binaries with.
///
/// Every input is read or refused with an error; an accepted slice lies inside the input, and a universal file's
/// slices do not claim more bytes than it has.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(fuzzInput(data, size))
    guard let slices = try? DebugFileParsing.slices(of: bytes) else { return 0 }
    fuzzRequire(!slices.isEmpty, "a file was accepted with no slice")
    for slice in slices {
        fuzzRequire(
            slice.fileOffset <= UInt64(bytes.count) && slice.size <= UInt64(bytes.count) - slice.fileOffset,
            "slice \(slice.arch) \(slice.uuid) at \(slice.fileOffset) of \(slice.size) bytes lies outside the \(bytes.count)-byte input")
        fuzzRequire(slice.uuid.count == 36, "slice UUID \(slice.uuid) is not 8-4-4-4-12")
    }
    return 0
}

@main
enum MachOFuzzer {
    static func main() { runLibFuzzer(fuzz) }
}
