import CrashtrailCore
import CrashtrailEncoding
import CrashtrailFormats
import CrashtrailReports
import CrashtrailStore

/// A separate trail file, decoded and ready to join the stored crash it belongs to (SPEC sections 7 and 18): the crash
/// that carries its session ID, else by bundle ID, pid and a launch time within the tolerance of its `session.started`.
///
/// `ingest --trails DIR` and `crashtrail serve`'s `POST /api/ID/trails` both join trails through it.
package struct JoinableTrail: Sendable {
    /// The decoded trail, with the dictionary ID it named.
    package var decoded: DecodedTrail
    /// Its session start, in milliseconds since 1970.
    package var started: Int64
    /// The screen on top at the crash by it, which names the group of a crash without frames.
    package var crashScreen: String?
    /// Its last screens as its app's manifest replays them, when the manifest is known.
    package var screenPath: StoredScreenPath?
    /// The counts it adds, when it is the trail of a session that did not crash (SPEC section 20): such a trail joins
    /// no crash.
    package var sessionTrail: SessionTrail?
    /// The project it was sent to: it joins and waits for that project's crashes only (SPEC section 19), and a session
    /// trail counts for that project's health.
    package var project = ProjectID.first {
        didSet { sessionTrail?.project = project }
    }

    /// Decodes a trail file's bytes (`.ctr`, `.ct1` or `.json`) with `decoder`.
    /// - Throws: `RejectionError` (`undecodable-trail`) saying why.
    package init(bytes: [UInt8], decoder: any TrailDecoding) throws(RejectionError) {
        let decoded: DecodedTrail
        do {
            decoded = try decoder.decodeTrail(bytes: bytes)
        } catch {
            throw RejectionError(.undecodableTrail, "the trail file could not be decoded: \(error)")
        }
        let trail = decoded.trail
        guard let started = Timestamp.milliseconds(parsing: trail.session.started) else {
            throw RejectionError(
                .undecodableTrail,
                "the trail's session.started \"\(trail.session.started)\" is not an RFC 3339 time, so it cannot be joined")
        }
        let manifest = decoder.manifest(forApp: trail.app.bundleID, dictionaryID: decoded.dictionaryID)
        if SessionTrail.isCounted(trail) { sessionTrail = try SessionTrail(trail, manifest: manifest, project: project) }
        self.decoded = decoded
        self.started = started
        crashScreen = trail.crashScreen(manifest: manifest)
        screenPath = manifest.map { StoredScreenPath(trail: trail, manifest: $0, replayed: decoded.replayedScreens) }
    }

    /// Attaches the trail to the first stored crash awaiting one that it belongs to, in the transaction `db`.
    /// - Parameters:
    ///   - tolerance: how far the crash's launch time may be from `session.started`, in milliseconds.
    ///   - db: the write transaction.
    /// - Returns: the ID of the report it joined, or nil when no stored crash awaits it.
    /// - Throws: the database's error.
    package func join(tolerance: Int64, in db: any StoreTransaction) throws -> String? {
        let trail = decoded.trail
        return try ReportStore.joinClosestReport(
            decoded, bundleID: trail.app.bundleID, pid: trail.session.pid, started: started, tolerance: tolerance,
            crashScreen: crashScreen, screenPath: screenPath, project: project, in: db)
    }

    /// The trail as it waits for its crash (SPEC section 18).
    package var waiting: ReportStore.WaitingTrail {
        let trail = decoded.trail
        return ReportStore.WaitingTrail(
            bundleID: trail.app.bundleID, session: trail.session.id, pid: trail.session.pid, started: started,
            steps: trail.steps.count, trail: String(decoding: decoded.canonicalJSON, as: UTF8.self), dictionary: decoded.dictionaryID,
            screenPath: screenPath, crashScreen: crashScreen, project: project)
    }

    /// The report this very trail was joined to before, if any: a trail sent again is answered with it.
    /// - Throws: the database's error.
    package func joinedBefore(tolerance: Int64, in db: any StoreTransaction) throws -> String? {
        try ReportStore.reportJoined(to: decoded, started: started, tolerance: tolerance, project: project, in: db)
    }
}
