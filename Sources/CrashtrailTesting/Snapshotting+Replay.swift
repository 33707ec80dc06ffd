public import CrashtrailCore
public import CrashtrailReplay
public import SnapshotTesting

extension Snapshotting where Value == Trail, Format == String {
    /// A snapshot strategy that replays a trail on the headless Navigator and pins the rendered replay, so an
    /// app's test suite catches any change in how a crash's path replays: its screens, its shortest links,
    /// its anomalies.
    ///
    /// Built on `.lines`, so it has swift-snapshot-testing's record modes, `__Snapshots__` folders and line
    /// diffs. Re-record with `SNAPSHOT_TESTING_RECORD=failed swift test`.
    ///
    /// ```swift
    /// import CrashtrailTesting
    /// import SnapshotTesting
    ///
    /// @Test func checkoutCrashReplays() throws {
    ///     let manifest = try Manifest(yaml: manifestText)
    ///     let trail = try Trail(json: Array(trailJSON.utf8))
    ///     assertSnapshot(of: trail, as: .replay(manifest: manifest, format: .text), named: "checkout-crash")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - manifest: the app's route manifest.
    ///   - format: the output to pin (`text` by default; `json`, `urls`, `simctl`, `xcuitest`).
    ///   - report: how the output names the report (default `trail`).
    ///   - options: rendering options (colour stays off in golden files by default).
    /// - Returns: the strategy; golden files take the format's extension (`.txt`, `.json`, `.sh`, `.swift`).
    public static func replay(
        manifest: Manifest, format: ReplayFormat = .text, report: String = "trail", options: RenderOptions = RenderOptions()
    ) -> Snapshotting {
        let replayer = Replayer(manifest: manifest)
        var strategy = SimplySnapshotting<String>.lines.pullback { (trail: Trail) in
            ReplayRenderer.render(replayer.replay(trail, report: report), as: format, options: options)
        }
        strategy.pathExtension = format.fileExtension
        return strategy
    }
}

extension Snapshotting where Value == Replay, Format == String {
    /// A snapshot strategy that pins an already computed `Replay` rendered as `format`.
    /// - Parameters:
    ///   - format: the output to pin.
    ///   - options: rendering options.
    /// - Returns: the strategy, built on `.lines`.
    public static func rendered(as format: ReplayFormat, options: RenderOptions = RenderOptions()) -> Snapshotting {
        var strategy = SimplySnapshotting<String>.lines.pullback { (replay: Replay) in
            ReplayRenderer.render(replay, as: format, options: options)
        }
        strategy.pathExtension = format.fileExtension
        return strategy
    }
}
