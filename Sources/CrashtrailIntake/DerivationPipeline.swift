import CrashtrailCore
import CrashtrailFormats
import CrashtrailReports
import CrashtrailStore
import CrashtrailSymbols

/// The derive half of the intake path: from a parsed payload to the row the store keeps, one named stage a line.
///
/// ```
/// parsed payload ─► trail ─► symbols ─► signature (grouping rules) ─► screen path ─► record
/// ```
///
/// A new stage is a type in `Intake/Stages` and one line here.
struct DerivationPipeline: Sendable {
    /// Decodes the trail a payload carries, or infers one from its breadcrumbs.
    let trails: TrailStage
    /// Names the frames.
    let symbols: SymbolStage
    /// The store's grouping rules and merges (SPEC section 21).
    let grouping: GroupingSource

    /// - Parameters:
    ///   - decoder: decodes embedded trails; its manifests replay and infer trails.
    ///   - maximumTrailSteps: the most steps an embedded trail may have.
    ///   - symbolicator: looks frames up in the store's debug files; nil to name frames as the payload does.
    ///   - grouping: the grouping rules and merges the signature follows.
    init(decoder: any TrailDecoding, maximumTrailSteps: Int, symbolicator: Symbolicator?, grouping: GroupingSource) {
        trails = TrailStage(decoder: decoder, maximumSteps: maximumTrailSteps)
        symbols = SymbolStage(symbolicator: symbolicator)
        self.grouping = grouping
    }

    /// The stored row for `parsed`.
    /// - Parameters:
    ///   - parsed: the parsed payload.
    ///   - identity: its ID and digest.
    ///   - payload: the input's bytes, compressed.
    ///   - source: where the payload came from.
    ///   - project: the project it is stored in: its debug files and grouping rules are that project's.
    /// - Returns: the row.
    func record(
        _ parsed: ParsedPayload, identity: PayloadIdentity, payload: CompressedPayload, source: String, project: ProjectID
    ) -> ReportRecord {
        let trail = trails.trail(of: parsed, sessionID: identity.id)
        let frames = symbols.frames(of: parsed, project: project)
        let exception = parsed.exception.completed()
        let grouping = grouping.current
        let signature =
            grouping.isEmpty
            ? CrashSignature.make(exception: exception, frames: frames.signing, crashScreen: trail.crashScreen)
            : grouping.signature(
                project: project, exception: exception, frames: frames.signing,
                release: GroupingRuleBook.release(bundleID: parsed.app.bundleID, version: parsed.app.version, build: parsed.app.build),
                crashScreen: trail.crashScreen)
        let screenPath = ScreenPathStage.screenPath(of: trail)
        var record = RecordStage.record(
            parsed, identity: identity, payload: payload, trail: trail, frames: frames, exception: exception, signature: signature,
            screenPath: screenPath, source: source)
        record.project = project
        return record
    }
}
