import CrashtrailCore
import CrashtrailReplay
import CrashtrailTestSupport
import Foundation

/// `crashtrail-replay-bench [MANIFEST] [--steps N] [--runs N] [--stage NAME]...`: replay speed on generated trails.
///
/// Prints a table of steps per second (median of several runs) for the headless NavigationEngine alone, on the
/// usual mix, on a URL-heavy trail (half its steps open a deep link) and on many short trails each replayed from
/// launch (as ingest rebuilds each trail's final state), for deep-link resolution and printing alone, and for the
/// whole replay command's work: parsing the trail JSON, replaying, computing and verifying the shortest links,
/// and rendering JSON. `--stage` (repeatable: engine, urls, trails, lookup, print, replay, command) runs only the
/// stages named, for profiling one with `perf`. Run it in release:
///
///     swift run -c release crashtrail-replay-bench
@main
struct ReplayBench {
    /// The share of steps that open a deep link in the URL-heavy trail, on top of the usual mix's 8 %.
    static let urlShare = 50

    static func main() throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let steps = try option("--steps", in: &arguments) ?? 100_000
        let runs = try option("--runs", in: &arguments) ?? 7
        let stages = try stageOptions(in: &arguments)
        let manifestPath = arguments.first ?? "Samples/PirateBay/Sources/PirateBay/piratebay.yml"
        let manifest = try Manifest(contentsOfFile: manifestPath)
        var generator = BenchTrailGenerator(manifest: manifest, seed: 0x5EED_CAFE)
        let trail = generator.trail(steps: steps)
        var urlGenerator = BenchTrailGenerator(manifest: manifest, seed: 0x5EED_CAFE, urlShare: urlShare)
        let urlTrail = urlGenerator.trail(steps: steps)
        let urls = urlTrail.steps.compactMap { step -> String? in
            if case .open(.url(let url)) = step.op { return url }
            return nil
        }
        let linked = urls.compactMap { manifest.destination(forURL: $0) }
        // As ingest replays trails to rebuild `final`: many short trails, each from launch on a fresh engine, with
        // 12 % of steps opening a deep link as the corpus generator's trails do.
        var shortTrails: [[Step]] = []
        var shortGenerator = BenchTrailGenerator(manifest: manifest, seed: 0x1A6E_57, urlShare: 4)
        var shortSteps = 0
        var lengths = SplitMix64(seed: 0x1E_4675)
        while shortSteps < steps {
            let length = 20 + Int(lengths.next() % 481)
            shortTrails.append(shortGenerator.trail(steps: length).steps)
            shortSteps += length
        }
        let trailJSON = trail.canonicalJSON

        var results: [(name: String, times: [Double], count: Int, unit: String)] = []
        if stages.contains("engine") {
            let times = (0..<runs).map { _ in
                measure {
                    var engine = NavigationEngine(manifest: manifest)
                    let anomalies = engine.apply(trail.steps)
                    blackHole(anomalies.count + engine.state.modals.count)
                }
            }
            results.append(("NavigationEngine.apply", times, steps, "steps"))
        }
        if stages.contains("urls") {
            let times = (0..<runs).map { _ in
                measure {
                    var engine = NavigationEngine(manifest: manifest)
                    let anomalies = engine.apply(urlTrail.steps)
                    blackHole(anomalies.count + engine.state.modals.count)
                }
            }
            results.append(("NavigationEngine.apply, URL-heavy trail (\(urls.count) opens by URL)", times, steps, "steps"))
        }
        if stages.contains("trails") {
            let times = (0..<runs).map { _ in
                measure {
                    var modals = 0
                    for trail in shortTrails {
                        var engine = NavigationEngine(manifest: manifest)
                        engine.apply(trail)
                        modals += engine.state.modals.count
                    }
                    blackHole(modals)
                }
            }
            let name = "NavigationEngine.apply, \(shortTrails.count) trails of 20–500 steps (\(shortSteps) in all), each from launch"
            results.append((name, times, shortSteps, "steps"))
        }
        if stages.contains("lookup") {
            let times = (0..<runs).map { _ in
                measure {
                    var found = 0
                    for url in urls where manifest.destination(forURL: url) != nil { found += 1 }
                    blackHole(found)
                }
            }
            results.append(("Manifest.destination(forURL:), the URL-heavy trail's links", times, urls.count, "URLs"))
        }
        if stages.contains("print") {
            let times = (0..<runs).map { _ in
                measure {
                    var printed = 0
                    for destination in linked where manifest.url(for: destination) != nil { printed += 1 }
                    blackHole(printed)
                }
            }
            results.append(("Manifest.url(for:), the \(linked.count) destinations those links name", times, linked.count, "URLs"))
        }
        let replayer = Replayer(manifest: manifest)
        if stages.contains("replay") {
            let times = (0..<runs).map { _ in
                measure { blackHole(replayer.replay(trail, report: "bench").steps.count) }
            }
            results.append(("replay (steps + links)", times, steps, "steps"))
        }
        var outputBytes = 0
        if stages.contains("command") {
            let times = try (0..<runs).map { _ in
                try measureThrowing {
                    let parsed = try Trail(json: trailJSON)
                    let replay = replayer.replay(parsed, report: "bench")
                    let output = ReplayRenderer.render(replay, as: .json)
                    outputBytes = output.utf8.count
                }
            }
            results.append(("whole command (parse + replay + links + JSON)", times, steps, "steps"))
        }

        print("Replay benchmark: \(steps) generated steps over \(manifest.app), median of \(runs) runs")
        print("trail JSON \(trailJSON.count) bytes, replay JSON \(outputBytes) bytes")
        print("")
        print(row("stage", "median ms", "per second"))
        print(row("---", "---", "---"))
        for result in results {
            let median = result.times.sorted()[result.times.count / 2]
            let perSecond = Double(result.count) / median
            print(row(result.name, String(format: "%.1f", median * 1000), String(format: "%.0f %@", perSecond, result.unit)))
        }
    }

    static let allStages = ["engine", "urls", "trails", "lookup", "print", "replay", "command"]

    static func stageOptions(in arguments: inout [String]) throws -> Set<String> {
        var stages: Set<String> = []
        while let index = arguments.firstIndex(of: "--stage") {
            guard index + 1 < arguments.count, allStages.contains(arguments[index + 1]) else {
                throw BenchError(description: "--stage takes one of \(allStages.joined(separator: ", ")), e.g. --stage engine")
            }
            stages.insert(arguments[index + 1])
            arguments.removeSubrange(index...(index + 1))
        }
        return stages.isEmpty ? Set(allStages) : stages
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
