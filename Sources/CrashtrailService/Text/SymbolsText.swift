import CrashtrailCore
import CrashtrailReports
import CrashtrailStore
import CrashtrailSymbols

/// What `crashtrail symbols` prints.
package enum SymbolsText {
    /// One line for a slice `symbols add` read.
    package static func line(_ slice: DebugFileImport.Slice) -> String {
        "\(slice.isNew ? "stored " : "already") \(slice.uuid) \(slice.arch.padding(toLength: 7, withPad: " ", startingAt: 0)) \(slice.name) (\(slice.kind == "dwarf" ? "DWARF" : "symbol table only"), from \(slice.source))"
    }

    /// The summary after the slices.
    package static func summary(_ result: DebugFileImport.Result) -> String {
        let stored = result.slices.filter(\.isNew).count
        var lines = [
            "\(stored) new debug file\(stored == 1 ? "" : "s"), \(result.slices.count - stored) already stored, \(result.refused.count) refused."
        ]
        if result.rederived.examined > 0 {
            lines.append(
                "\(result.rederived.examined) stored report\(result.rederived.examined == 1 ? " was" : "s were") waiting for them and \(result.rederived.examined == 1 ? "is" : "are") symbolicated now; \(result.rederived.changed) changed."
            )
        }
        if let notice = result.notice { lines.append("Note: \(notice)") }
        return lines.joined(separator: "\n")
    }

    /// `symbols add`'s JSON: `slices`, `refused`, `rederived` (`examined`, `changed`) and `notice`.
    package static func json(_ result: DebugFileImport.Result) -> JSONValue {
        .object([
            "slices": .array(
                result.slices.map { slice in
                    .object([
                        "uuid": .string(slice.uuid), "arch": .string(slice.arch), "name": .string(slice.name),
                        "kind": .string(slice.kind), "new": .bool(slice.isNew), "source": .string(slice.source),
                    ])
                }),
            "refused": .array(result.refused.map { .object(["name": .string($0.name), "reason": .string($0.reason)]) }),
            "rederived": .object([
                "examined": .int(Int64(result.rederived.examined)), "changed": .int(Int64(result.rederived.changed)),
            ]),
            "notice": result.notice.map(JSONValue.string) ?? .null,
        ])
    }

    /// `symbols list`: a table of the stored debug files.
    package static func table(_ files: [DebugFile]) -> String {
        guard !files.isEmpty else {
            return "No debug files are stored; add them with crashtrail symbols add PATH… (dSYM bundles, folders, zip archives)."
        }
        return TextTable.render(
            header: ["UUID", "ARCH", "NAME", "KIND", "SIZE", "ADDED", "PROJECT"],
            rows: files.map { [$0.uuid, $0.arch, $0.name, $0.kind, String($0.size), $0.added, projectText($0.project)] })
    }

    /// A debug file's project as `symbols list` shows it: its ID, or `every` for one kept for every project.
    static func projectText(_ project: ProjectScope) -> String {
        project.project.map(\.description) ?? "every"
    }

    /// `symbols list`'s JSON.
    package static func json(_ files: [DebugFile]) -> JSONValue {
        .array(
            files.map { file in
                .object([
                    "uuid": .string(file.uuid), "arch": .string(file.arch), "name": .string(file.name), "kind": .string(file.kind),
                    "size": .int(file.size), "sha1": .string(file.sha1), "added": .string(file.added),
                    "textVMAddr": .string("0x" + String(file.textVMAddr, radix: 16)),
                    "project": .int(Int64(file.project.project?.rawValue ?? 0)),
                ])
            })
    }

    /// `symbols list --missing`: a table of the images that wait for a debug file.
    package static func table(_ missing: [MissingDebugFile]) -> String {
        guard !missing.isEmpty else { return "No stored report waits for a debug file: every app image its frames name has one." }
        return TextTable.render(
            header: ["UUID", "IMAGE", "APP VERSIONS", "REPORTS WAITING"],
            rows: missing.map { [$0.uuid, $0.name, $0.appVersions.joined(separator: ", "), String($0.reports)] })
    }

    /// `symbols list --missing`'s JSON.
    package static func json(_ missing: [MissingDebugFile]) -> JSONValue {
        .array(
            missing.map { image in
                .object([
                    "uuid": .string(image.uuid), "name": .string(image.name),
                    "appVersions": .array(image.appVersions.map(JSONValue.string)), "reports": .int(Int64(image.reports)),
                ])
            })
    }
}
