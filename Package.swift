// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

// The layout shows the architecture, one job a target (docs/ARCHITECTURE.md draws the same map):
//
// The app side (what an iOS app links; Yams, swift-crypto, swift-syntax and the system zlib only):
//   CrashtrailCore          destinations, manifest, routes, headless Navigator, trail, the JSON byte layer, errors
//   CrashtrailEncoding      the compact trail codec (binary, ct1: text, split keys) over the system zlib
//   CrashtrailRecording     the recorder of a session's steps: journal, sinks, redaction, observed states
//   CrashtrailDestinations  the app's Destination enum as the source of its manifest: @TrailManifest and @Route
//   CrashtrailMacrosPlugin  the compiler plugin behind those macros (built for the host, never linked)
//   CrashtrailMacroExpansion  the macros' expansions and checks, which the plugin and the macro tests link
//   CrashtrailAdapters      what UIKit or SwiftUI shows (a screen tree) to observed states, recorded once each change
//                           settles (platform-neutral; the glue below calls it)
//   CrashtrailUIKit         the UIKit glue: a walk of the view controllers and the delegate that drives a settler
//   CrashtrailSwiftUI       the SwiftUI glue: a view modifier that reports the typed paths to a settler
//   UIKitStandIn, SwiftUIStandIn  where Apple's framework is missing (Linux; macOS for UIKit), the API the glue uses,
//                           declared with Apple's signatures so the glue compiles and is tested there; never a product
//
// The collector side (with the "Collector" trait):
//   CrashtrailReports       what a crash report is and how reports are counted: the model (CrashReport, frames,
//                           images, exception, Model/), the crash signature (Signature/), the grouping rules and
//                           their parser and globs (Grouping/), release health's tallies and sketches (Health/) and
//                           the trail inferred from breadcrumbs (Trails/); pure, no I/O
//   CrashtrailFormats       the crash formats: detection, the skimming JSON decoder, one parser a format; pure
//   CrashtrailStore         one ReportStore over a StoreBackend, the embedded SQLite backend (payloads compressed by
//                           zstd); it knows no crash format
//   CrashtrailPostgres      the PostgreSQL backend of the same store, for many workers and one shared store
//   CrashtrailSymbols       debug files: Mach-O reading, dSYM finding, import, chunked upload, the cache and
//                           llvm-symbolizer
//   CrashtrailIntake        the intake path (stages, the group committer) and the batch ingest job
//   CrashtrailForward       forwarding: reports as Sentry events with their trails, the outbox's sender
//   CrashtrailReplay        replay of a trail, the shortest reproducing links, paths, renderers, pages (the "Replay"
//                           trait: swift-mustache)
//   CrashtrailService       every operation a command performs, shared by the command line and a service
//   CrashtrailServer        `crashtrail serve`: the collector over HTTP (Sentry's protocol and every ingest format)
//   CrashtrailTesting       golden replays for app teams' own test suites (the "Testing" trait: swift-snapshot-testing)
//   crashtrail              the command-line tool: parses, calls the service layer, prints
//
// Then the tools (benchmarks, corpus, fault injection), the samples, and the tests, in that order.
// Where UIKit or SwiftUI is missing, the glue builds against its stand-in module (Sources/StandIns). macOS has SwiftUI
// but no UIKit (Mac Catalyst has UIKit, and the glue's `#if canImport(UIKit)` picks it there). Android or Windows could
// be added to these lists.
let withoutUIKit: TargetDependencyCondition? = .when(platforms: [.linux, .macOS])
let withoutSwiftUI: TargetDependencyCondition? = .when(platforms: [.linux])

let package = Package(
    name: "crashtrail",
    // macOS 15: the collector's shared state is guarded by Synchronization's Mutex.
    platforms: [.macOS(.v15), .iOS(.v16)],
    products: [
        .library(name: "CrashtrailCore", targets: ["CrashtrailCore"]),
        .library(name: "CrashtrailDestinations", targets: ["CrashtrailDestinations"]),
        .library(name: "CrashtrailRecording", targets: ["CrashtrailRecording"]),
        .library(name: "CrashtrailAdapters", targets: ["CrashtrailAdapters"]),
        .library(name: "CrashtrailUIKit", targets: ["CrashtrailUIKit"]),
        .library(name: "CrashtrailSwiftUI", targets: ["CrashtrailSwiftUI"]),
        .library(name: "CrashtrailEncoding", targets: ["CrashtrailEncoding"]),
        .library(name: "CrashtrailReplay", targets: ["CrashtrailReplay"]),
        .library(name: "CrashtrailStore", targets: ["CrashtrailStore"]),
        // The collector's libraries as one product, as it was before they were split by job.
        .library(
            name: "CrashtrailCollector",
            targets: ["CrashtrailReports", "CrashtrailFormats", "CrashtrailSymbols", "CrashtrailIntake"]
        ),
        .library(name: "CrashtrailService", targets: ["CrashtrailService"]),
        .library(name: "CrashtrailServer", targets: ["CrashtrailServer"]),
        .library(name: "CrashtrailTesting", targets: ["CrashtrailTesting"]),
        .executable(name: "crashtrail", targets: ["crashtrail"]),
    ],
    // Traits keep the app side light: an app that depends on crashtrail with `traits: []` resolves only Yams,
    // swift-crypto, swift-asn1 and swift-syntax (Samples/AppConsumer, AppSideDependencyTests). Each trait names the
    // products that need it: a product used without its trait does not build ("no such module"), since the package
    // it needs was never resolved.
    traits: [
        .trait(
            name: "Replay",
            description: "Needed by the CrashtrailReplay product (its HTML pages are swift-mustache templates)"
        ),
        .trait(
            name: "Testing",
            description: "Needed by the CrashtrailTesting product (golden replays on swift-snapshot-testing); enables Replay",
            enabledTraits: ["Replay"]
        ),
        .trait(
            name: "Collector",
            description:
                "Needed by every product but the app side's (Core, Encoding, Recording, Destinations, Adapters, UIKit, SwiftUI): the collector, store, server and command-line tool; enables Replay",
            enabledTraits: ["Replay"]
        ),
        .default(enabledTraits: ["Collector", "Testing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
        // Only `swift package generate-documentation` uses it; it adds nothing to what apps link.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The HTML pages (replay --format html, report --html) are Mustache templates.
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // The shared store: PostgreSQL through postgres-nio (and the NIO, TLS and logging packages its API names).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // `crashtrail serve`: HTTP, start and graceful shutdown, and /metrics.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // `crashtrail symbols add` reads the .zip archives Xcode and App Store Connect give dSYMs in.
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        // serve reads the multipart bodies of Sentry's chunk upload (sentry-cli debug-files upload).
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        // Forwarding to a team's tracker (SPEC section 17): HTTP/1.1 and TLS, pooled connections.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // The @TrailManifest and @Route macros (SPEC section 18). The range takes the swift-syntax a host toolchain
        // pairs with, from Swift 6.0 on.
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
    ],
    targets: [
        // MARK: System libraries, through pkg-config (zlib and zstd come from the system, never vendored)

        // Not `CZlib`: ZIPFoundation, which `crashtrail symbols add` reads archives with, names its own zlib module so.
        .systemLibrary(
            name: "CSystemZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // Only the collector uses it: the raw payloads it stores are zstd frames at level 1, about 1.4 times as
        // fast as libdeflate's zlib streams and about 10% smaller (BENCHMARKS.md, Ingest).
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
        ),
        // Only `crashtrail serve` uses it: request bodies sent with Content-Encoding: br, as Sentry's Python SDK sends
        // them when the brotli module is installed.
        .systemLibrary(
            name: "CBrotli",
            pkgConfig: "libbrotlidec",
            providers: [.apt(["libbrotli-dev"]), .brew(["brotli"])]
        ),

        // MARK: The app side: what an iOS app links

        .target(
            name: "CrashtrailCore",
            dependencies: [.product(name: "Yams", package: "Yams")]
        ),
        .target(
            name: "CrashtrailEncoding",
            dependencies: ["CrashtrailCore", "CSystemZlib"]
        ),
        // What an app links to record its trail: the recorder (and, with it, the encoded forms its sinks hand over).
        .target(
            name: "CrashtrailRecording",
            dependencies: ["CrashtrailCore", "CrashtrailEncoding", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // What an app imports to derive its manifest from its Destination enum: the macros and TrailDestination.
        .target(
            name: "CrashtrailDestinations",
            dependencies: ["CrashtrailCore", "CrashtrailMacrosPlugin"]
        ),
        // The compiler plugin that derives a manifest from an enum's cases and their @Route annotations.
        .macro(
            name: "CrashtrailMacrosPlugin",
            dependencies: [
                "CrashtrailMacroExpansion",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        // The macros' expansion and checks, a library apart from the plugin's entry point: the tests link it rather
        // than the macro target, which would make SwiftPM build every test target (and what they need) again for the
        // host, and race on the executables' testable modules.
        .target(
            name: "CrashtrailMacroExpansion",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]
        ),
        // Recording without hand-wiring (SPEC section 18): the screen tree an app shows to a section-4 state, recorded
        // when a change settles. Only Core and Recording, so an app links nothing the collector needs.
        .target(
            name: "CrashtrailAdapters",
            dependencies: ["CrashtrailCore", "CrashtrailRecording"]
        ),
        // The glue: as thin as it can be, calling CrashtrailAdapters. On Apple platforms it imports UIKit and SwiftUI;
        // elsewhere the stand-ins, which declare only the API the glue uses, with Apple's signatures, so a typo or a
        // wrong signature fails the build here too. Neither stand-in is a product: no app links one.
        .target(
            name: "UIKitStandIn",
            path: "Sources/StandIns/UIKit"
        ),
        .target(
            name: "SwiftUIStandIn",
            path: "Sources/StandIns/SwiftUI"
        ),
        .target(
            name: "CrashtrailUIKit",
            dependencies: [
                "CrashtrailAdapters", "CrashtrailCore", "CrashtrailRecording", .target(name: "UIKitStandIn", condition: withoutUIKit),
            ]
        ),
        .target(
            name: "CrashtrailSwiftUI",
            dependencies: [
                "CrashtrailAdapters", "CrashtrailCore", "CrashtrailRecording", .target(name: "SwiftUIStandIn", condition: withoutSwiftUI),
            ]
        ),

        // MARK: The collector side

        // The report model every collector target shares (the parsers make it, the store keeps it), and the crash
        // signature that groups reports.
        .target(
            name: "CrashtrailReports",
            dependencies: ["CrashtrailCore"]
        ),
        // The crash formats: detection by content, the skimming JSON decoder, one parser a format. Pure: bytes in,
        // parsed payloads out; no store, no server, no process.
        .target(
            name: "CrashtrailFormats",
            dependencies: ["CrashtrailCore", "CrashtrailReports"]
        ),
        // The store: reports, trails, groups and manifests over a backend (the embedded SQLite file here). It knows
        // no crash format: reprocessing asks a ReportDeriving the intake target provides.
        .target(
            name: "CrashtrailStore",
            dependencies: [
                "CrashtrailCore",
                "CrashtrailEncoding",
                "CrashtrailReports",
                "CZstd",
                collector("GRDB", from: "GRDB.swift"),
                collector("GRDBSQLite", from: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "CrashtrailPostgres",
            dependencies: [
                "CrashtrailCore",
                "CrashtrailReports",
                "CrashtrailStore",
                collector("PostgresNIO", from: "postgres-nio"),
                collector("NIOCore", from: "swift-nio"),
                collector("NIOPosix", from: "swift-nio"),
                collector("NIOConcurrencyHelpers", from: "swift-nio"),
                collector("NIOSSL", from: "swift-nio-ssl"),
                collector("Logging", from: "swift-log"),
            ]
        ),
        // Debug files (SPEC section 16): Mach-O slices read from dSYM bundles, folders and zip archives, their import
        // into the store and Sentry's chunked upload, and llvm-symbolizer processes that name the functions, files and
        // lines at addresses.
        .target(
            name: "CrashtrailSymbols",
            dependencies: [
                "CrashtrailCore",
                "CrashtrailReports",
                "CrashtrailStore",
                collector("ZIPFoundation", from: "ZIPFoundation"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The intake path ingest and serve share (detect, decode, identify, derive, commit) and the batch ingest job.
        .target(
            name: "CrashtrailIntake",
            dependencies: [
                "CrashtrailCore",
                "CrashtrailEncoding",
                "CrashtrailFormats",
                "CrashtrailReports",
                "CrashtrailStore",
                "CrashtrailSymbols",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Forwarding (SPEC section 17): reports as Sentry events enriched with their trails, the outbox's sender.
        .target(
            name: "CrashtrailForward",
            dependencies: [
                "CrashtrailCore",
                "CrashtrailReports",
                "CrashtrailStore",
                collector("AsyncHTTPClient", from: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                collector("NIOCore", from: "swift-nio"),
                collector("NIOHTTP1", from: "swift-nio"),
                collector("NIOPosix", from: "swift-nio"),
                collector("Logging", from: "swift-log"),
            ]
        ),
        .target(
            name: "CrashtrailReplay",
            dependencies: ["CrashtrailCore", .product(name: "Mustache", package: "swift-mustache", condition: .when(traits: ["Replay"]))]
        ),
        // Every operation a command performs (ingest, manifests, reprocess, list, show, replay, paths, the triage
        // site), so the command line and a service share them.
        .target(
            name: "CrashtrailService",
            dependencies: [
                "CrashtrailCore",
                "CrashtrailEncoding",
                "CrashtrailRecording",
                "CrashtrailReplay",
                "CrashtrailReports",
                "CrashtrailFormats",
                "CrashtrailStore",
                "CrashtrailSymbols",
                "CrashtrailIntake",
                "CrashtrailPostgres",
                "CrashtrailForward",
            ]
        ),
        // The collector as a service (SPEC section 14): the HTTP routes, the group-committing intake, keys and limits.
        .target(
            name: "CrashtrailServer",
            dependencies: [
                "CBrotli",
                "CrashtrailCore",
                "CrashtrailEncoding",
                "CrashtrailReports",
                "CrashtrailFormats",
                "CrashtrailStore",
                "CrashtrailSymbols",
                "CrashtrailIntake",
                "CrashtrailService",
                "CrashtrailReplay",
                "CrashtrailForward",
                collector("Hummingbird", from: "hummingbird"),
                collector("HTTPTypes", from: "swift-http-types"),
                collector("ServiceLifecycle", from: "swift-service-lifecycle"),
                collector("Logging", from: "swift-log"),
                collector("Metrics", from: "swift-metrics"),
                collector("Prometheus", from: "swift-prometheus"),
                collector("NIOConcurrencyHelpers", from: "swift-nio"),
                collector("MultipartKit", from: "multipart-kit"),
            ]
        ),
        .target(
            name: "CrashtrailTesting",
            dependencies: [
                "CrashtrailCore",
                "CrashtrailReplay",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing", condition: .when(traits: ["Testing"])),
            ]
        ),
        .executableTarget(
            name: "crashtrail",
            dependencies: [
                "CrashtrailCore",
                "CrashtrailEncoding",
                "CrashtrailRecording",
                "CrashtrailReplay",
                "CrashtrailReports",
                "CrashtrailFormats",
                "CrashtrailStore",
                "CrashtrailIntake",
                "CrashtrailService",
                "CrashtrailServer",
                collector("ArgumentParser", from: "swift-argument-parser"),
            ]
        ),

        // MARK: Tools: benchmarks, the corpus, fault injection (never products)

        // Only tests and tools use this: conformance-suite loading, seeded generators, temporary folders.
        .target(
            name: "CrashtrailTestSupport",
            dependencies: ["CrashtrailCore", "CrashtrailEncoding", "CrashtrailRecording"]
        ),
        // Trail-encoding benchmark: crashtrail against gzip, xz, zstd and zstd with a trained dictionary.
        .executableTarget(
            name: "crashtrail-trail-bench", dependencies: ["CrashtrailCore", "CrashtrailEncoding", "CrashtrailTestSupport"],
            path: "Tools/TrailBench"),
        // Symbolication benchmark: addresses per second, cold and from the cache (BENCHMARKS.md).
        .executableTarget(
            name: "crashtrail-symbols-bench",
            dependencies: [
                "CrashtrailIntake", "CrashtrailSymbols", "CrashtrailReports", "CrashtrailEncoding", "CrashtrailStore",
                "CrashtrailTestSupport",
            ],
            path: "Tools/SymbolsBench"),
        // Records steps with `crashtrail journal record`, ends it by SIGKILL, SIGSEGV or SIGABRT at random moments
        // and checks each recovery (docs/RELIABILITY.md).
        .executableTarget(
            name: "crashtrail-journal-faults",
            dependencies: ["CrashtrailCore", "CrashtrailTestSupport"],
            path: "Tools/JournalFaults"
        ),
        // Recording cost per step with the journal and a sink, against JSON lines with FileHandle; allocations are
        // counted by interposing malloc in this executable only (CMallocCount).
        .target(name: "CMallocCount", path: "Tools/RecordBench/CMallocCount"),
        .executableTarget(
            name: "crashtrail-record-bench",
            dependencies: ["CMallocCount", "CrashtrailCore", "CrashtrailRecording", "CrashtrailTestSupport"],
            path: "Tools/RecordBench/Bench"
        ),
        .executableTarget(
            name: "crashtrail-replay-bench",
            dependencies: ["CrashtrailCore", "CrashtrailReplay", "CrashtrailTestSupport"],
            path: "Tools/ReplayBench"
        ),
        // What release health costs the store: bytes per million sessions, sessions counted per second.
        .executableTarget(
            name: "crashtrail-health-bench",
            dependencies: ["CrashtrailCore", "CrashtrailIntake", "CrashtrailReports", "CrashtrailStore"],
            path: "Tools/HealthBench"
        ),
        .executableTarget(
            name: "crashtrail-ingest-floor",
            dependencies: [
                "CrashtrailIntake", "CrashtrailFormats", "CrashtrailStore", .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tools/IngestFloor"
        ),
        // The CPU an HTTP request costs before serve's own work: SwiftNIO and Hummingbird servers that only read a body
        // and answer (Tools/http-floor.sh).
        .executableTarget(
            name: "crashtrail-http-floor",
            dependencies: [
                collector("Hummingbird", from: "hummingbird"),
                collector("Logging", from: "swift-log"),
                collector("NIOCore", from: "swift-nio"),
                collector("NIOHTTP1", from: "swift-nio"),
                collector("NIOPosix", from: "swift-nio"),
            ],
            path: "Tools/HTTPFloor"
        ),
        .executableTarget(
            name: "crashtrail-corpus",
            dependencies: ["CrashtrailCore", "CrashtrailEncoding", "CrashtrailTestSupport"],
            path: "Tools/CorpusGen"
        ),

        // MARK: Samples: the sample app of the typed path, and docs/ADOPTING.md's snippets

        // The sample app of the typed path: its own Destination enum, navigated, recorded and replayed.
        .target(
            name: "PirateBay",
            dependencies: ["CrashtrailCore", "CrashtrailDestinations", "CrashtrailRecording"],
            path: "Samples/PirateBay/Sources/PirateBay",
            resources: [.copy("piratebay.yml")]
        ),
        // docs/ADOPTING.md's snippets, compiled: an app's enum, launch and tests as the page shows them
        // (AdoptingDocTests checks that every snippet of the page is in these files).
        .target(
            name: "Adopting",
            dependencies: [
                "CrashtrailAdapters", "CrashtrailCore", "CrashtrailDestinations", "CrashtrailEncoding", "CrashtrailRecording",
                "CrashtrailSwiftUI", "CrashtrailUIKit", .target(name: "UIKitStandIn", condition: withoutUIKit),
                .target(name: "SwiftUIStandIn", condition: withoutSwiftUI),
            ],
            path: "Samples/Adopting/Sources/Adopting"
        ),

        // MARK: Tests

        .testTarget(
            name: "AdoptingTests",
            dependencies: ["Adopting", "CrashtrailDestinations"],
            path: "Samples/Adopting/Tests/AdoptingTests",
            exclude: ["shop.manifest.yml"]
        ),
        .testTarget(
            name: "CrashtrailForwardTests",
            dependencies: ["CrashtrailForward", "CrashtrailReports", "CrashtrailStore", "CrashtrailCore"]
        ),
        .testTarget(
            name: "PirateBayTests",
            dependencies: [
                "PirateBay", "CrashtrailCore", "CrashtrailDestinations", "CrashtrailRecording", "CrashtrailEncoding", "CrashtrailReplay",
                "CrashtrailTesting",
            ],
            path: "Samples/PirateBay/Tests/PirateBayTests",
            exclude: ["__Snapshots__"]
        ),

        // The macros' expansions and build-time diagnostics, and the runtime checks of what they generate.
        .testTarget(
            name: "CrashtrailMacrosTests",
            dependencies: [
                "CrashtrailMacroExpansion", "CrashtrailDestinations", "CrashtrailCore",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ]
        ),
        .testTarget(
            name: "CrashtrailCoreTests",
            dependencies: ["CrashtrailCore", "CrashtrailTestSupport"]
        ),
        .testTarget(
            name: "CrashtrailRecordingTests",
            dependencies: ["CrashtrailRecording", "CrashtrailCore", "CrashtrailEncoding", "CrashtrailReplay", "CrashtrailTestSupport"]
        ),
        .testTarget(
            name: "CrashtrailAdaptersTests",
            dependencies: [
                "CrashtrailAdapters", "CrashtrailCore", "CrashtrailRecording", "CrashtrailTestSupport", "CrashtrailUIKit",
                "CrashtrailSwiftUI",
                // The glue's tests make the stand-ins' view controllers and views; where the frameworks exist they are
                // compiled out.
                .target(name: "UIKitStandIn", condition: withoutUIKit), .target(name: "SwiftUIStandIn", condition: withoutSwiftUI),
            ]
        ),
        .testTarget(
            name: "CrashtrailEncodingTests",
            dependencies: ["CrashtrailEncoding", "CrashtrailCore", "CrashtrailTestSupport"]
        ),
        .testTarget(
            name: "CrashtrailReplayTests",
            dependencies: [
                "CrashtrailReplay", "CrashtrailCore", "CrashtrailTestSupport", "CrashtrailTesting",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing", condition: .when(traits: ["Testing"])),
            ]
        ),
        .testTarget(
            name: "CrashtrailCollectorTests",
            dependencies: [
                "CrashtrailIntake", "CrashtrailFormats", "CrashtrailReports", "CrashtrailSymbols", "CrashtrailStore", "CrashtrailCore",
                "CrashtrailEncoding",
                "CrashtrailTestSupport", collector("GRDB", from: "GRDB.swift"),
                // Reads other tools' YAML readings of crash files (AppleTextDifferentialTests).
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .testTarget(
            name: "CrashtrailSymbolsTests",
            dependencies: [
                "CrashtrailSymbols", "CrashtrailTestSupport",
                collector("ZIPFoundation", from: "ZIPFoundation"),
            ]
        ),
        .testTarget(
            name: "CrashtrailCLITests",
            dependencies: [
                "crashtrail", "crashtrail-corpus", "CrashtrailIntake", "CrashtrailFormats", "CrashtrailReports", "CrashtrailSymbols",
                "CrashtrailStore", "CrashtrailService", "CrashtrailRecording",
                "CrashtrailEncoding",
                "CrashtrailTestSupport",
            ]
        ),
        // The store suite on both backends (SQLite and a PostgreSQL server from Tools/with-postgres.sh), the
        // PostgreSQL faults, and the commands' output on either store.
        .testTarget(
            name: "CrashtrailStoreTests",
            dependencies: [
                "crashtrail", "crashtrail-corpus", "CrashtrailIntake", "CrashtrailFormats", "CrashtrailReports", "CrashtrailSymbols",
                "CrashtrailStore", "CrashtrailPostgres", "CrashtrailCore",
                "CrashtrailEncoding",
                "CrashtrailTestSupport",
                collector("GRDB", from: "GRDB.swift"),
            ]
        ),
        // `crashtrail serve`: its routes in process, and the real process under Sentry's Python SDK, SIGKILL and hostile
        // clients.
        .testTarget(
            name: "CrashtrailServerTests",
            dependencies: [
                "crashtrail", "CrashtrailServer", "CrashtrailService", "CrashtrailIntake", "CrashtrailFormats", "CrashtrailReports",
                "CrashtrailSymbols", "CrashtrailStore", "CrashtrailCore",
                "CrashtrailEncoding", "CrashtrailTestSupport",
                collector("HummingbirdTesting", from: "hummingbird"),
                collector("HTTPTypes", from: "swift-http-types"),
                collector("GRDB", from: "GRDB.swift"),
            ]
        ),
        // Hostile input, limits, kill -9 mid-ingest and concurrent ingest jobs (docs/RELIABILITY.md).
        .testTarget(
            name: "CrashtrailReliabilityTests",
            dependencies: [
                "crashtrail", "CrashtrailCore", "CrashtrailEncoding", "CrashtrailIntake", "CrashtrailFormats", "CrashtrailReports",
                "CrashtrailSymbols", "CrashtrailStore", "CrashtrailTestSupport",
                collector("GRDB", from: "GRDB.swift"),
            ]
        ),
    ]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}

/// A product only the collector side needs: resolved and built with the "Collector" trait only, so an app that depends
/// on crashtrail with `traits: []` never resolves its package.
func collector(_ product: String, from package: String) -> Target.Dependency {
    .product(name: product, package: package, condition: .when(traits: ["Collector"]))
}
