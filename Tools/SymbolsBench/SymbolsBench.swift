import CrashtrailEncoding
import CrashtrailIntake
import CrashtrailStore
import CrashtrailSymbols
import CrashtrailTestSupport
import Foundation

/// `crashtrail-symbols-bench`: how fast the store's debug files name frames.
///
/// Stores the symbol fixtures' dSYMs (`Tests/Fixtures/symbols`) in a temporary store, then looks up every address of
/// their reference (each line-table row, each function's end, the middle of each call: every slice, DWARF 4 and 5,
/// C, C++ and Swift) in batches of 8, as the frames of one report come:
///
/// - **cold**: a new symbolicator and an empty cache folder, so each round writes the debug files out of the store,
///   starts `llvm-symbolizer` and makes it read them; every address is new;
/// - **warm**: the same addresses again, answered from the (UUID, address) cache.
///
/// Prints the median of `--rounds` (5 by default) rounds of each, in addresses per second of wall time.
///
///     swift run -c release crashtrail-symbols-bench [--rounds N] [--workers N]
@main
struct SymbolsBench {
    static func main() throws {
        var rounds = 5
        var workers = 1
        var arguments = CommandLine.arguments.dropFirst().makeIterator()
        while let argument = arguments.next() {
            switch argument {
            case "--rounds": rounds = Int(arguments.next() ?? "") ?? rounds
            case "--workers": workers = Int(arguments.next() ?? "") ?? workers
            default:
                FileHandle.standardError.write(Data("usage: crashtrail-symbols-bench [--rounds N] [--workers N]\n".utf8))
                exit(2)
            }
        }
        let fixtures = SymbolFixtures.shared
        let reference = try fixtures.reference()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("crashtrail-symbols-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ReportStore.open(path: folder.appendingPathComponent("store.sqlite").path)
        let dsyms = Set(
            reference.slices.filter { $0.kind == "dsym" }.map { $0.file.components(separatedBy: "/Contents/").first ?? $0.file })
        let imported = try DebugFileImport(store: store, decoder: TrailCodec(manifests: [])).add(
            dsyms.sorted().map { fixtures.url($0).path }, project: .first)
        guard imported.refused.isEmpty else { throw BenchError(description: "fixtures refused: \(imported.refused)") }
        let lookups = reference.slices.filter { $0.kind == "dsym" }.flatMap { slice in
            slice.lookups.map { Symbolicator.Lookup(uuid: slice.uuid.lowercased(), address: slice.textVMAddr + $0.offset) }
        }
        let batches = stride(from: 0, to: lookups.count, by: 8).map { Array(lookups[$0..<min(lookups.count, $0 + 8)]) }

        var cold: [Double] = []
        var warm: [Double] = []
        for round in 0..<rounds {
            let cache = folder.appendingPathComponent("cache-\(round)")
            let symbolicator = try Symbolicator(store: store, folder: cache, workers: workers)
            guard symbolicator.canSymbolicate else { throw BenchError(description: "llvm-symbolizer was not found") }
            for pass in 0..<2 {
                let clock = ContinuousClock()
                var named = 0
                let elapsed = clock.measure {
                    for batch in batches { named += symbolicator.frames(at: batch).count { $0 != nil } }
                }
                // A few addresses (padding past a function's end with no symbol) name nothing, as symbolic's reading says.
                guard named * 100 >= lookups.count * 99 else {
                    throw BenchError(description: "\(lookups.count - named) of \(lookups.count) addresses named nothing")
                }
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                if pass == 0 { cold.append(Double(lookups.count) / seconds) } else { warm.append(Double(lookups.count) / seconds) }
            }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        print(
            "Symbolication of \(lookups.count) addresses in \(dsyms.count) dSYMs, batches of 8, \(workers) worker(s), median of \(rounds) rounds"
        )
        print("| pass | addresses/s |")
        print("|---|---:|")
        print("| cold (debug files written out, llvm-symbolizer started and reading) | \(Int(median(cold).rounded())) |")
        print("| warm ((UUID, address) cache) | \(Int(median(warm).rounded())) |")
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
}
