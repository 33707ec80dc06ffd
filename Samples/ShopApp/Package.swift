// swift-tools-version: 6.1
import PackageDescription

// A sample iOS app, built and linked for iOS by Tools/ios-lane.sh against Apple's SDK (it needs UIKit and SwiftUI, so
// it builds on no other platform): two executables an app team could start from, each recording through the glue.
//   ShopUIKit    a UIKit app: scenes, a tab bar of navigation controllers, sheets, a screen drawn by SwiftUI inside
//                a hosting controller, all recorded by ViewControllerTrail
//   ShopSwiftUI  a SwiftUI app: a TabView of NavigationStacks with typed paths and a sheet, recorded by
//                recordingTrail
// Both share ShopModel: the Destination enum that is the manifest, and the recorder started at launch.
let package = Package(
    name: "ShopApp",
    platforms: [.iOS(.v16)],
    dependencies: [
        // The repository checked out as `crashtrail` (a package path's last component names it), app side only.
        .package(path: "../..", traits: [])
    ],
    targets: [
        .target(
            name: "ShopModel",
            dependencies: [
                .product(name: "CrashtrailCore", package: "crashtrail"),
                .product(name: "CrashtrailDestinations", package: "crashtrail"),
                .product(name: "CrashtrailRecording", package: "crashtrail"),
                .product(name: "CrashtrailAdapters", package: "crashtrail"),
            ]
        ),
        .executableTarget(
            name: "ShopUIKit",
            dependencies: ["ShopModel", .product(name: "CrashtrailUIKit", package: "crashtrail")]
        ),
        .executableTarget(
            name: "ShopSwiftUI",
            dependencies: ["ShopModel", .product(name: "CrashtrailSwiftUI", package: "crashtrail")]
        ),
    ]
)
