import CrashtrailCore
import CrashtrailEncoding
import CrashtrailRecording

/// `crashtrail journal inspect`: a journal's header, steps and damage, as text and as JSON.
package enum JournalText {
    /// The same facts as the text, as one JSON object.
    package static func jsonValue(of recovered: RecoveredJournal, name: String) -> JSONValue {
        let trail = recovered.trail
        func int(_ value: Int) -> JSONValue { .int(Int64(value)) }
        return .object([
            "journal": .string(name),
            "app": .object([
                "bundleID": .string(trail.app.bundleID), "version": .string(trail.app.version), "build": .string(trail.app.build),
            ]),
            "session": .object(["id": .string(trail.session.id), "pid": .int(trail.session.pid), "started": .string(trail.session.started)]
            ),
            "manifest": .object([
                "app": .string(recovered.manifest.app), "dictionaryID": .string(ManifestDictionary(manifest: recovered.manifest).idString),
            ]),
            "limits": .object(["steps": int(recovered.limits.maximumSteps), "bytes": int(recovered.limits.maximumBytes)]),
            "fileSize": int(recovered.fileSize), "headerSize": int(recovered.headerSize), "records": int(recovered.records),
            "steps": int(trail.steps.count), "dropped": .int(Int64(trail.dropped)),
            "lastStep": trail.steps.last.map { .object(["t": .int($0.t), "op": .string($0.op.name)]) } ?? .null,
            "topScreen": trail.final?.topDestination?.jsonValue ?? .null,
            "damage": recovered.damage.map { .string("\($0)") } ?? .null,
        ])
    }

    /// The journal for people: app, session, limits, step counts and any damage.
    package static func text(of recovered: RecoveredJournal, name: String) -> String {
        let trail = recovered.trail
        let top = trail.final?.topDestination
        var lines = [
            "Journal \(name)",
            "  app        \(trail.app.bundleID) \(trail.app.version) (\(trail.app.build))",
            "  session    \(trail.session.id), pid \(trail.session.pid), started \(trail.session.started)",
            "  manifest   \(recovered.manifest.app), dictionary \(ManifestDictionary(manifest: recovered.manifest).idString)",
            "  limits     \(recovered.limits.maximumSteps) steps, \(recovered.limits.maximumBytes) bytes of step JSON",
            "  size       \(recovered.fileSize) bytes: a \(recovered.headerSize)-byte header and \(recovered.records) intact \(recovered.records == 1 ? "record" : "records")",
            "  steps      \(trail.steps.count) kept, \(trail.dropped) let go before them (folded into the base)",
            "  last step  " + (trail.steps.last.map { "t = \($0.t) ms, \($0.op.name)" } ?? "none"),
            "  top screen " + (top.map { CanonicalJSON.string(of: $0.jsonValue) } ?? "none"),
        ]
        if let damage = recovered.damage {
            lines.append("  damage     \(damage)")
        } else {
            lines.append("  damage     none: every byte was recovered")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
