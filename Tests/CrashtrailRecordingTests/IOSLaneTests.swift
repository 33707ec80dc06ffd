import CrashtrailTestSupport
import Foundation
import Testing

/// The iOS lane, `Tools/ios-lane.sh` (docs/ADOPTING.md).
///
/// The app side, the samples and a sample app built and linked for iOS against Apple's SDK, and the stand-ins held
/// against it. It runs where `CRASHTRAIL_IOS_SDK` names an SDK (a
/// folder made by make-sdk.sh on Linux, Xcode's iPhoneOS SDK on a Mac); no Apple SDK is in the repository, so it is
/// skipped elsewhere. The reporters' sources are passed on as the lane reads them (`CRASHTRAIL_KSCRASH`, …).
@Suite("The iOS lane")
struct IOSLaneTests {
    static let sdk = ProcessInfo.processInfo.environment["CRASHTRAIL_IOS_SDK"].flatMap { $0.isEmpty ? nil : $0 }

    @Test(
        "Tools/ios-lane.sh builds the app side and the samples for iOS, links the sample app and checks the stand-ins",
        .enabled(if: sdk != nil, "CRASHTRAIL_IOS_SDK names no Apple SDK (docs/ADOPTING.md, The iOS lane)"),
        .timeLimit(.minutes(90)))
    func lane() throws {
        let sdk = try #require(Self.sdk)
        let bash = try #require(CommandRunner.which("bash"))
        let folder = try TemporaryFolder("crashtrail-ios-lane")
        defer { folder.remove() }
        let lane = PackageRoot.url.appendingPathComponent("Tools/ios-lane.sh").path
        let result = try bash.run([lane, sdk, folder.url.appendingPathComponent("out").path], directory: PackageRoot.url)
        #expect(result.status == 0, "the iOS lane failed:\n\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("== summary") && !result.stdout.contains("FAILED"), "\(result.stdout)")
    }
}
