import CrashtrailCore
import CrashtrailTestSupport
import Foundation

// crashtrail-journal-faults [RUNS] [--seed N]: runs `crashtrail journal record` RUNS times (default 1,000), each
// ended by SIGKILL, SIGSEGV or SIGABRT at a random moment, recovers each journal and checks SPEC section 10's
// promise. Prints one line per failure and a summary; exits 1 if any run broke the promise.
//
//   swift build --product crashtrail --product crashtrail-journal-faults
//   .build/debug/crashtrail-journal-faults 1000

var arguments = Array(CommandLine.arguments.dropFirst())
var seed: UInt64 = 0x10C4
if let index = arguments.firstIndex(of: "--seed"), index + 1 < arguments.count, let value = UInt64(arguments[index + 1]) {
    seed = value
    arguments.removeSubrange(index...(index + 1))
}
let runs = arguments.first.flatMap { Int($0) } ?? 1_000
guard let runner = CommandRunner.locate() else {
    FileHandle.standardError.write(Data("error: build crashtrail first: swift build --product crashtrail\n".utf8))
    exit(1)
}
let manifestPath = PackageRoot.url.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml").path
let folder = try TemporaryFolder("journal-faults")
defer { folder.remove() }
let faults = try JournalFaultRun(executable: runner.executable, manifestPath: manifestPath, limits: (steps: 200, bytes: 16 * 1024))
let report = try faults.runMany(runs, seed: seed, in: folder.url) { index, outcome in
    if !outcome.failures.isEmpty { print("run \(index): \(outcome): \(outcome.failures.joined(separator: "; "))") }
    if (index + 1) % 100 == 0 { FileHandle.standardError.write(Data("\(index + 1) runs\n".utf8)) }
}
print(report)
exit(report.failed == 0 ? 0 : 1)
