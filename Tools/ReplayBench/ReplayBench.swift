import CrashtrailCore
import CrashtrailReplay
import Foundation

/// `crashtrail-replay-bench [MANIFEST] [--steps N] [--runs N]`: replay speed on a generated trail.
///
/// Prints a table of steps per second (median of several runs) for the headless NavigationEngine alone and
/// for the whole replay command's work: parsing the trail JSON, replaying, computing and verifying the
/// shortest links, and rendering JSON. Run it in release:
///
///     swift run -c release crashtrail-replay-bench
@main
struct ReplayBench {
    static func main() throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let steps = try option("--steps", in: &arguments) ?? 100_000
        let runs = try option("--runs", in: &arguments) ?? 7
        let manifestPath = arguments.first ?? "Samples/PirateBay/Sources/PirateBay/piratebay.yml"
        let manifest = try Manifest(contentsOfFile: manifestPath)
        var generator = BenchTrailGenerator(manifest: manifest, seed: 0x5EED_CAFE)
        let trail = generator.trail(steps: steps)
        let trailJSON = trail.canonicalJSON

        let engineTimes = (0..<runs).map { _ in
            measure {
                var engine = NavigationEngine(manifest: manifest)
                let anomalies = engine.apply(trail.steps)
                blackHole(anomalies.count + engine.state.modals.count)
            }
        }
        let replayer = Replayer(manifest: manifest)
        let replayTimes = (0..<runs).map { _ in
            measure { blackHole(replayer.replay(trail, report: "bench").steps.count) }
        }
        var outputBytes = 0
        let commandTimes = try (0..<runs).map { _ in
            try measureThrowing {
                let parsed = try Trail(json: trailJSON)
                let replay = replayer.replay(parsed, report: "bench")
                let output = ReplayRenderer.render(replay, as: .json)
                outputBytes = output.utf8.count
            }
        }

        print("Replay benchmark: \(steps) generated steps over \(manifest.app), median of \(runs) runs")
        print("trail JSON \(trailJSON.count) bytes, replay JSON \(outputBytes) bytes")
        print("")
        print(row("stage", "median ms", "steps/s"))
        print(row("---", "---", "---"))
        for (name, times) in [
            ("NavigationEngine.apply", engineTimes),
            ("replay (steps + links)", replayTimes),
            ("whole command (parse + replay + links + JSON)", commandTimes),
        ] {
            let median = times.sorted()[times.count / 2]
            let perSecond = Double(steps) / median
            print(row(name, String(format: "%.1f", median * 1000), String(format: "%.0f", perSecond)))
        }
    }

    static func option(_ name: String, in arguments: inout [String]) throws -> Int? {
        guard let index = arguments.firstIndex(of: name) else { return nil }
        guard index + 1 < arguments.count, let value = Int(arguments[index + 1]), value > 0 else {
            throw BenchError(description: "\(name) takes a positive whole number, e.g. \(name) 100000")
        }
        arguments.removeSubrange(index...(index + 1))
        return value
    }

    static func row(_ name: String, _ median: String, _ rate: String) -> String {
        "| \(name) | \(median) | \(rate) |"
    }

    static func measure(_ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        let elapsed = clock.measure(body)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func measureThrowing(_ body: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    @inline(never)
    static func blackHole(_ value: Int) {
        if value == Int.min { print(value) }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
}
