import CrashtrailCore
import CrashtrailEncoding
import CrashtrailFormats
import CrashtrailReports
import CrashtrailStore

/// The trail stage of the intake path: the trail a payload carries, decoded, or else one inferred from its
/// breadcrumbs (SPEC section 15).
struct TrailStage: Sendable {
    /// Decodes embedded trails and knows the manifests trails replay and are inferred with.
    let decoder: any TrailDecoding
    /// The most steps an embedded trail may have; more is refused as undecodable.
    let maximumSteps: Int

    /// The trail of `parsed`.
    /// - Parameters:
    ///   - parsed: the parsed payload, with the trail it carried (still encoded) and its breadcrumbs' screens.
    ///   - sessionID: the session an inferred trail is named by: the report's ID.
    /// - Returns: the trail, or ``DerivedTrail/none``.
    func trail(of parsed: ParsedPayload, sessionID: String) -> DerivedTrail {
        if let carrier = parsed.trail { return embedded(carrier) }
        return inferred(parsed, sessionID: sessionID) ?? .none
    }

    /// The trail the payload carried, decoded; an undecodable one says why.
    private func embedded(_ carrier: TrailCarrier) -> DerivedTrail {
        do {
            if case .object(let value) = carrier, case .array(let steps)? = value["steps"], steps.count > maximumSteps {
                throw TrailTooLongError(count: steps.count, limit: maximumSteps)
            }
            let decoded = try decoder.decodeTrail(carrier)
            guard decoded.trail.steps.count <= maximumSteps else {
                throw TrailTooLongError(count: decoded.trail.steps.count, limit: maximumSteps)
            }
            let trail = decoded.trail
            return DerivedTrail(
                info: TrailInfo(source: .embedded, steps: trail.steps.count), json: String(decoding: decoded.canonicalJSON, as: UTF8.self),
                dictionaryID: decoded.dictionaryID, trail: trail,
                manifest: decoder.manifest(forApp: trail.app.bundleID, dictionaryID: decoded.dictionaryID),
                replayedScreens: decoded.replayedScreens)
        } catch {
            return DerivedTrail(info: TrailInfo(source: .undecodable, error: String(describing: error)))
        }
    }

    /// The trail the payload's breadcrumbs give, with the manifest that named their screens; nil when the payload has
    /// no screen breadcrumbs, no bundle ID, or no manifest of its app names a screen it saw.
    private func inferred(_ parsed: ParsedPayload, sessionID: String) -> DerivedTrail? {
        guard !parsed.sightings.isEmpty, let bundleID = parsed.app.bundleID,
            let (manifest, dictionaryID) = decoder.inferenceManifest(forApp: bundleID)
        else { return nil }
        let app = Trail.AppInfo(bundleID: bundleID, version: parsed.app.version ?? "", build: parsed.app.build ?? "")
        guard
            let trail = TrailInference.trail(
                from: parsed.sightings, manifest: manifest, app: app, sessionID: sessionID, pid: parsed.pid ?? 0,
                fallbackStart: parsed.time.flatMap(Timestamp.milliseconds(parsing:)))
        else { return nil }
        return DerivedTrail(
            info: TrailInfo(source: .inferred, steps: trail.steps.count),
            json: String(decoding: DecodedTrail(trail).canonicalJSON, as: UTF8.self), dictionaryID: dictionaryID, trail: trail,
            manifest: manifest)
    }
}

/// An embedded trail with more steps than the limit.
struct TrailTooLongError: Error, CustomStringConvertible {
    var count: Int
    var limit: Int
    var description: String {
        "the trail has \(count) steps, over the limit of \(limit) (a recorder keeps 500); it was not stored"
    }
}
