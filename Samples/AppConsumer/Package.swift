// swift-tools-version: 6.1
import PackageDescription

// An app's own package as a team writes it: crashtrail's app-side libraries only, with no trait, so none of the
// packages the collector needs (SQLite, PostgreSQL, the HTTP server, NIO) is resolved or built. The tests
// (AppSideDependencyTests) resolve it and check what it pulls in.
let package = Package(
    name: "AppConsumer",
    platforms: [.macOS(.v15), .iOS(.v16)],
    dependencies: [
        // The repository checked out as `crashtrail` (a package path's last component names it).
        .package(path: "../..", traits: [])
    ],
    targets: [
        .target(
            name: "AppConsumer",
            dependencies: [
                .product(name: "CrashtrailCore", package: "crashtrail"),
                .product(name: "CrashtrailRecording", package: "crashtrail"),
                .product(name: "CrashtrailDestinations", package: "crashtrail"),
                .product(name: "CrashtrailAdapters", package: "crashtrail"),
                .product(name: "CrashtrailUIKit", package: "crashtrail"),
                .product(name: "CrashtrailSwiftUI", package: "crashtrail"),
            ]
        )
    ]
)
