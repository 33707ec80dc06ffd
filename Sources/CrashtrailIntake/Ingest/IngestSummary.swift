import CrashtrailCore
import CrashtrailFormats

/// What an ingest run did (SPEC section 8).
public struct IngestSummary: Hashable, Sendable {
    /// Payloads examined: each file, each line of an NDJSON file or of standard input, each trail file.
    public var inputs = 0
    /// Reports stored for the first time.
    public var stored = 0
    /// Reports whose bytes were already stored.
    public var duplicates = 0
    /// Inputs refused and copied to the quarantine folder.
    public var rejected = 0
    /// Refused inputs by reason code.
    public var rejectedByReason: [String: Int] = [:]
    /// Trails of the reports stored in this run, by source; `joined` also counts trails that arrived late
    /// for reports stored before.
    public var trailsEmbedded = 0
    public var trailsJoined = 0
    public var trailsMissing = 0
    public var trailsUndecodable = 0
    /// Trail files that joined no stored crash and wait for theirs (SPEC section 18).
    ///
    /// A later run, or `serve`, joins each when its crash comes. Not in the JSON, which keeps SPEC section 8's keys.
    public var trailsWaiting = 0
    /// Trail files that joined no stored crash and could not wait: as many trails as allowed already wait.
    public var trailsNotKept = 0
    /// Reports stored without a recorded trail whose breadcrumbs gave one (SPEC section 15).
    ///
    /// The JSON counts them in `missing` (they still await a recorded trail), keeping SPEC section 8's keys.
    public var trailsInferred = 0
    /// Trail files of sessions that did not crash, added to the counts of `paths --rate` (SPEC section 20); not in the
    /// JSON, which keeps SPEC section 8's keys.
    public var sessionTrails = 0
    /// Diagnostics read and not stored because they are not crashes (MetricKit hangs, CPU and disk exceptions, launches).
    public var skippedDiagnostics = 0
    /// Wall-clock seconds the run took.
    public var seconds: Double = 0

    public init() {}

    /// Payloads per second.
    public var rate: Double { seconds > 0 ? Double(inputs) / seconds : 0 }

    mutating func reject(_ code: RejectionError.Code) {
        rejected += 1
        rejectedByReason[code.name, default: 0] += 1
    }

    /// The JSON form `--format json` prints: exactly the SPEC keys.
    ///
    /// Canonical JSON holds only integers, so `seconds` is rounded to whole seconds.
    public var jsonValue: JSONValue {
        .object([
            "inputs": .int(Int64(inputs)), "stored": .int(Int64(stored)), "duplicates": .int(Int64(duplicates)),
            "rejected": .int(Int64(rejected)),
            "rejectedByReason": .object(rejectedByReason.mapValues { .int(Int64($0)) }),
            "trails": .object([
                "embedded": .int(Int64(trailsEmbedded)), "joined": .int(Int64(trailsJoined)),
                "missing": .int(Int64(trailsMissing + trailsInferred)), "undecodable": .int(Int64(trailsUndecodable)),
            ]),
            "seconds": .int(Int64(seconds.rounded())),
        ])
    }
}
