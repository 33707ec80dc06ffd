import CrashtrailCore

/// A static triage site (`crashtrail report --html DIR`): an index of crash groups, a page per group with the
/// paths that lead to it, and a replay page per report.
///
/// Pure: built from values, it returns each page's relative path and HTML, and the same values give the same bytes,
/// so a site can be pinned by golden files and published by a CI job. The groups hold no replays: a report's page
/// is made from its replay alone (``reportPage(_:reportID:groupID:)``), so a writer can replay, write and forget one
/// report at a time and a site of any size takes bounded memory.
package struct TriageSite: Sendable {
    /// One crash group and what its pages show.
    package struct Group: Sendable {
        package var id: String
        package var signature: String
        package var count: Int
        package var firstSeen: String?
        package var lastSeen: String?
        package var versions: [String]
        /// Reports with a trail.
        package var withTrail: Int
        /// Reports per UTC day, oldest first.
        package var byDay: [(day: String, count: Int)]
        /// The screen paths that lead to the crash.
        package var paths: PathTable
        /// The reports the group's page lists (the newest, at most ``TriageSite/listedReports``).
        package var reports: [Report]
        /// Reports of the group beyond those listed; they still have their pages.
        package var moreReports: Int
        /// The signatures merged into the group by hand (`crashtrail group merge`).
        package var merged: [String] = []
        /// The transition its crashes take far more often than sessions that did not crash, when both are known.
        package var overRepresented: OverRepresented?

        package init(
            id: String, signature: String, count: Int, firstSeen: String?, lastSeen: String?, versions: [String], withTrail: Int,
            byDay: [(day: String, count: Int)], paths: PathTable, reports: [Report], moreReports: Int = 0, merged: [String] = []
        ) {
            self.moreReports = moreReports
            self.merged = merged
            self.id = id
            self.signature = signature
            self.count = count
            self.firstSeen = firstSeen
            self.lastSeen = lastSeen
            self.versions = versions
            self.withTrail = withTrail
            self.byDay = byDay
            self.paths = paths
            self.reports = reports
        }
    }

    /// One report of a group.
    package struct Report: Sendable {
        package var id: String
        package var time: String?
        package var version: String?
        package var format: String
        /// How its trail came (embedded, joined, missing, undecodable), in words.
        package var trail: String

        package init(id: String, time: String?, version: String?, format: String, trail: String) {
            self.id = id
            self.time = time
            self.version = version
            self.format = format
            self.trail = trail
        }
    }

    /// The most reports a group's page lists, newest first; the others are counted and still have their pages.
    package static let listedReports = 500

    package var groups: [Group]
    /// The app the site was limited to, if any.
    package var app: String?
    /// The first day the site covers, if limited.
    package var since: String?
    /// Where the data came from, for the pages' footers (a store's file name).
    package var source: String
    /// The health page's content, when sessions or session trails are counted (SPEC section 20).
    package var health: Health?
    /// Whether the index links the health page: when it is written with the site, or rendered on its own (`serve`).
    package var linksHealth: Bool

    package init(
        groups: [Group], app: String? = nil, since: String? = nil, source: String, health: Health? = nil, linksHealth: Bool? = nil
    ) {
        self.groups = groups
        self.app = app
        self.since = since
        self.source = source
        self.health = health
        self.linksHealth = linksHealth ?? (health != nil)
    }

    /// The index, the health page when there is one, and every group's page: `index.html`, `health.html`, then
    /// `groups/ID-HASH.html` in group order.
    package func pages() -> [(path: String, html: String)] {
        [("index.html", indexPage())] + (health.map { [("health.html", healthPage($0))] } ?? [])
            + groups.map { ("groups/\(Self.fileName(for: $0.id)).html", groupPage($0)) }
    }

    /// A frame of the crashed thread as the report page shows it.
    package struct Frame: Hashable, Sendable {
        /// The frame's number, as Apple's reports number them: a function inlined into the frame below shares its number.
        package var number: Int
        /// The binary image's name; `???` when unknown.
        package var image: String
        /// The function, demangled; nil when nothing names it.
        package var function: String?
        /// `file:line`, when a debug file gave them.
        package var location: String?
        /// Whether the function was inlined into the next frame's.
        package var inlined: Bool
        /// The offset into the image, when known.
        package var offset: Int64?

        package init(number: Int, image: String, function: String?, location: String?, inlined: Bool, offset: Int64?) {
            self.number = number
            self.image = image
            self.function = function
            self.location = location
            self.inlined = inlined
            self.offset = offset
        }

        /// What the page's fingerprint takes of the frame: a page is written again when its frames change, as they do
        /// when a debug file arrives after the crash.
        package var fingerprint: String {
            "\(image)\u{1}\(function ?? "")\u{1}\(location ?? "")\u{1}\(inlined)\u{1}\(offset ?? -1)"
        }
    }

    /// An image of the app that the report names and the store has no debug file for.
    package struct MissingImage: Hashable, Sendable {
        package var name: String
        package var uuid: String

        package init(name: String, uuid: String) {
            self.name = name
            self.uuid = uuid
        }
    }

    /// What a report's page says of a report without a replay.
    package struct ReportSummary: Hashable, Sendable {
        package var id: String
        /// The exception as the signature heads it (`EXC_BAD_ACCESS/SIGSEGV`).
        package var exception: String
        package var reason: String?
        /// The app, its version and build, in words.
        package var app: String
        package var os: String
        package var device: String
        package var time: String
        package var format: String
        /// Why there is no replay, in a sentence.
        package var noReplay: String

        package init(
            id: String, exception: String, reason: String?, app: String, os: String, device: String, time: String, format: String,
            noReplay: String
        ) {
            self.id = id
            self.exception = exception
            self.reason = reason
            self.app = app
            self.os = os
            self.device = device
            self.time = time
            self.format = format
            self.noReplay = noReplay
        }
    }

    /// The replay page of a report of the group `groupID`, at `reports/ID-HASH.html`, linking back to its group, with
    /// the crashed thread's `frames` and the app's images without a debug file.
    package static func reportPage(
        _ replay: Replay, reportID: String, groupID: String, frames: [Frame] = [], missingImages: [MissingImage] = []
    ) -> (path: String, html: String) {
        let navigation = HTMLReplayRenderer.Navigation(up: "../groups/\(fileName(for: groupID)).html", label: "Crash group \(groupID)")
        return (
            "reports/\(fileName(for: reportID)).html",
            HTMLReplayRenderer.render(replay, navigation: navigation, frames: frames, missingImages: missingImages)
        )
    }

    /// The page of a report without a replay (no trail, or no manifest for its app's): what it is, its crashed thread as
    /// symbolicated, the app's images without a debug file, and why there is no replay; at `reports/ID-HASH.html`.
    package static func reportPage(
        _ report: ReportSummary, groupID: String, frames: [Frame], missingImages: [MissingImage], source: String
    ) -> (path: String, html: String) {
        var context = HTMLReplayRenderer.framesContext(frames, missingImages: missingImages)
        let fields: [String: Any] = [
            "title": "Report \(report.id)", "up": "../groups/\(fileName(for: groupID)).html", "upLabel": "Crash group \(groupID)",
            "report": report.id, "exception": report.exception, "reason": report.reason ?? "", "hasReason": report.reason != nil,
            "app": report.app, "os": report.os, "device": report.device, "time": report.time, "format": report.format,
            "noReplay": report.noReplay, "source": source,
        ]
        context.merge(fields) { _, new in new }
        return ("reports/\(fileName(for: report.id)).html", PageTemplates.render("report", context))
    }

    /// The index page: every group, its counts, its most common path and its reports per day.
    package func indexPage() -> String {
        let groups: [[String: Any]] = groups.map { group in
            [
                "id": group.id, "signature": group.signature, "count": group.count,
                "href": "groups/\(Self.fileName(for: group.id)).html",
                "versions": group.versions.joined(separator: ", "),
                "withTrail": PathTable.percentage(group.withTrail, of: group.count),
                "topPath": group.paths.rows.first.map { $0.screens.joined(separator: " › ") } ?? "(no trail)",
                "bars": Self.bars(group.byDay, width: 160, label: "Reports per day of group \(group.id)"),
            ]
        }
        return PageTemplates.render(
            "index",
            [
                "title": "Crashes" + (app.map { " of \($0)" } ?? ""), "app": app ?? "", "hasApp": app != nil, "since": since ?? "",
                "hasSince": since != nil,
                "reportWords": counted(self.groups.reduce(0) { $0 + $1.count }, "report"),
                "groupWords": counted(self.groups.count, "group"), "groups": groups,
                "source": source, "hasHealth": linksHealth,
            ])
    }

    /// A group's page: its counts, its paths, its reports per day and the reports it lists.
    package func groupPage(_ group: Group) -> String {
        let reports: [[String: Any]] = group.reports.map { report in
            [
                "id": report.id, "time": report.time ?? "", "version": report.version ?? "", "format": report.format,
                "trail": report.trail,
                "href": "../reports/\(Self.fileName(for: report.id)).html",
            ]
        }
        let paths: [[String: Any]] = group.paths.rows.map { row in
            [
                "path": row.screens.joined(separator: " › "), "count": row.count, "share": row.share,
                "inferred": row.inferred, "hasInferred": row.inferred > 0,
            ]
        }
        return PageTemplates.render(
            "group",
            [
                "title": "Crash group \(group.id)", "up": "../index.html", "id": group.id, "signature": group.signature,
                "count": group.count, "countWords": counted(group.count, "report"),
                "withTrail": PathTable.percentage(group.withTrail, of: group.count),
                "merged": group.merged.enumerated().map { index, signature -> [String: Any] in
                    ["text": signature, "sep": index + 1 < group.merged.count ? "; " : ""]
                },
                "hasMerged": !group.merged.isEmpty,
                "firstSeen": group.firstSeen ?? "unknown", "lastSeen": group.lastSeen ?? "unknown",
                "versions": group.versions.isEmpty ? "unknown" : group.versions.joined(separator: ", "),
                "bars": Self.bars(group.byDay, width: 600, label: "Reports per day"),
                "last": group.paths.last, "paths": paths, "inferredPaths": group.paths.inferred,
                "hasInferredPaths": group.paths.inferred > 0, "pathCount": min(8, group.paths.rows.count),
                "converge": Self.converge(group.paths), "reports": reports, "source": source,
                "hasMore": group.moreReports > 0, "moreReports": group.moreReports, "listed": group.reports.count,
                "hasOver": group.overRepresented != nil,
                "over": group.overRepresented.map { over -> [String: Any] in
                    [
                        "transition": over.transition, "crashShare": HTMLReplayRenderer.format2(over.crashShare),
                        "sessionShare": HTMLReplayRenderer.format2(over.sessionShare), "lift": HTMLReplayRenderer.format2(over.lift),
                    ]
                } ?? [:],
            ])
    }

    /// Bars of reports per day, scaled to the busiest day.
    static func bars(_ days: [(day: String, count: Int)], width: Int, label: String) -> [String: Any] {
        let most = max(1, days.map(\.count).max() ?? 1)
        // At most 14 units a day, so one busy day is a bar, not a block.
        let slot = days.isEmpty ? 0 : min(14, Double(width) / Double(days.count))
        let bars: [[String: Any]] = days.enumerated().map { index, day in
            let height = max(1, Int((Double(day.count) / Double(most) * 36).rounded()))
            return [
                "x": HTMLReplayRenderer.format2(Double(index) * slot), "w": HTMLReplayRenderer.format2(max(1, slot - 2)),
                "y": 40 - height, "h": height, "day": day.day, "count": day.count,
            ]
        }
        return ["width": width, "days": bars, "label": label + ": " + days.map { "\($0.day) \($0.count)" }.joined(separator: ", ")]
    }

    /// The most frequent paths, one row each, right-aligned on the crash screen, so the screens where paths converge
    /// line up in the last columns.
    ///
    /// A cell is the more opaque the more reports (of the rows shown) pass through the
    /// same screen at the same distance from the crash: converging paths darken towards the right.
    static func converge(_ table: PathTable) -> [String: Any] {
        let rows = Array(table.rows.prefix(8))
        let columns = max(1, table.last)
        let cellWidth = 150
        let width = columns * (cellWidth + 8) + 8
        let total = max(1, rows.reduce(0) { $0 + $1.count })
        // Reports through each screen at each distance from the crash (0: the crash screen).
        var through: [Int: [String: Int]] = [:]
        for row in rows {
            for (distance, screen) in row.screens.reversed().enumerated() {
                through[distance, default: [:]][screen, default: 0] += row.count
            }
        }
        var cells: [[String: Any]] = []
        for (rowIndex, row) in rows.enumerated() {
            let offset = columns - row.screens.count
            for (index, screen) in row.screens.enumerated() {
                let x = 8 + (offset + index) * (cellWidth + 8)
                let y = 8 + rowIndex * 24
                let share = Double(through[row.screens.count - 1 - index]?[screen] ?? row.count) / Double(total)
                cells.append([
                    "x": x, "y": y, "w": cellWidth, "tx": x + 6, "ty": y + 13,
                    "opacity": HTMLReplayRenderer.format2(0.3 + 0.7 * share),
                    "text": screen.count > 20 ? String(screen.prefix(19)) + "…" : screen,
                ])
            }
        }
        return ["width": width, "height": max(40, 16 + rows.count * 24), "cells": cells]
    }

    /// Changes whenever the pages would render differently: a hash of the templates and the style sheet, and a
    /// revision to raise when the Swift code that writes the pages changes (`HTMLRows`, `HTMLReplayRenderer`).
    ///
    /// `report --html` keeps a page written by another renderer from being kept as it is.
    package static let rendererFingerprint: String = {
        let revision = "html-4"
        let text = [
            revision, PageTemplates.head, PageTemplates.foot, PageTemplates.screens, PageTemplates.frames, PageTemplates.report,
            PageTemplates.replay,
            PageTemplates.index, PageTemplates.group, PageTemplates.bars, PageTemplates.health, PageStyle.css, PageStyle.healthCSS,
        ].joined(separator: "\u{0}")
        return fnv1a(text)
    }()

    /// FNV-1a of the UTF-8 of `texts`, one after the other, as 16 hex digits.
    package static func fnv1a(_ texts: String...) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for text in texts {
            var text = text
            text.withUTF8 { bytes in
                for byte in bytes {
                    hash ^= UInt64(byte)
                    hash = hash &* 0x0000_0100_0000_01B3
                }
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// A file name for an ID: its safe characters (at most 48), then a hash of the whole ID, so any ID, however long
    /// or hostile, names one file inside the site.
    package static func fileName(for id: String) -> String {
        var safe = String(
            id.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
                .prefix(48).map(Character.init))
        if safe.isEmpty { safe = "report" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return safe + "-" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
