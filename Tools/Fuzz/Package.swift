// swift-tools-version: 6.0
import PackageDescription

// libFuzzer entry points for crashtrail's decoders (docs/RELIABILITY.md). A separate package, so the root
// package's `swift build` and `swift test` never compile it and need no sanitizer flags. `Tools/fuzz.sh`
// builds it with `-sanitize=fuzzer,address` given on the command line (never `unsafeFlags`) and runs each
// entry point over its seeds in `Corpus/<target>/`.
let package = Package(
    name: "crashtrail-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "crashtrail", path: "../..")
    ],
    targets: [
        // libFuzzer's driver, started by each entry point's `@main` (SwiftPM renames `main`, so libFuzzer's is unused).
        .target(name: "CLibFuzzer"),
        .target(name: "FuzzDriver", dependencies: ["CLibFuzzer"]),
        // What every entry point shares: the manifests it decodes against and the invariants it checks.
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "CrashtrailCore", package: "crashtrail"),
                .product(name: "CrashtrailEncoding", package: "crashtrail"),
            ]
        ),
        .executableTarget(name: "fuzz-trail-json", dependencies: ["FuzzDriver", "FuzzSupport", core], path: "Sources/TrailJSONFuzz"),
        .executableTarget(
            name: "fuzz-trail-binary", dependencies: ["FuzzDriver", "FuzzSupport", core, encoding], path: "Sources/TrailBinaryFuzz"),
        .executableTarget(
            name: "fuzz-trail-text", dependencies: ["FuzzDriver", "FuzzSupport", core, encoding], path: "Sources/TrailTextFuzz"),
        .executableTarget(
            name: "fuzz-trail-keys", dependencies: ["FuzzDriver", "FuzzSupport", core, encoding], path: "Sources/TrailKeysFuzz"),
        .executableTarget(name: "fuzz-manifest", dependencies: ["FuzzDriver", "FuzzSupport", core], path: "Sources/ManifestFuzz"),
        .executableTarget(name: "fuzz-url", dependencies: ["FuzzDriver", "FuzzSupport", core], path: "Sources/URLFuzz"),
        .executableTarget(
            name: "fuzz-payload", dependencies: ["FuzzDriver", "FuzzSupport", core, encoding, collector], path: "Sources/PayloadFuzz"),
        .executableTarget(
            name: "fuzz-payload-formats", dependencies: ["FuzzDriver", "FuzzSupport", collector], path: "Sources/PayloadFormatsFuzz"),
        .executableTarget(
            name: "fuzz-journal", dependencies: ["FuzzDriver", "FuzzSupport", core, recording], path: "Sources/JournalFuzz"),
        .executableTarget(name: "fuzz-macho", dependencies: ["FuzzDriver", "FuzzSupport", collector], path: "Sources/MachOFuzz"),
        // Writes the seed corpus (`fuzz-seeds Corpus`); not a fuzz target.
        .executableTarget(name: "fuzz-seeds", dependencies: ["FuzzSupport", core, encoding, recording], path: "Sources/SeedWriter"),
    ]
)

var core: Target.Dependency { .product(name: "CrashtrailCore", package: "crashtrail") }
var encoding: Target.Dependency { .product(name: "CrashtrailEncoding", package: "crashtrail") }
var recording: Target.Dependency { .product(name: "CrashtrailRecording", package: "crashtrail") }
var collector: Target.Dependency { .product(name: "CrashtrailCollector", package: "crashtrail") }
