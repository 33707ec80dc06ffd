import CrashtrailCore

/// The replay as one self-contained HTML page: a timeline of the steps on a time axis with the anomalies and the
/// dropped-steps boundary marked, the step table, the crash-time screens (recorded and replayed side by side when
/// they differ, the differing screens outlined), and the shortest links with a copy button each and one for all.
///
/// No network and no other file: the style (light and dark) and the copy script are in the page. Every value from
/// the trail is escaped (`HTML_SCALARS`), so destination values, app names and URLs show as text, never as markup.
enum HTMLReplayRenderer {
    /// Where the page sits in a triage site: a link back up, and what to call it.
    struct Navigation {
        var up: String
        var label: String
    }

    static func render(
        _ replay: Replay, navigation: Navigation? = nil, frames: [TriageSite.Frame] = [], missingImages: [TriageSite.MissingImage] = []
    ) -> String {
        var context = context(of: replay, navigation: navigation)
        context.merge(framesContext(frames, missingImages: missingImages)) { _, new in new }
        return PageTemplates.render("replay", context)
    }

    /// What the `frames` partial shows: the crashed thread's frames and the app's images without a debug file.
    static func framesContext(_ frames: [TriageSite.Frame], missingImages: [TriageSite.MissingImage]) -> [String: Any] {
        [
            "frames": frames.map { frame -> [String: Any] in
                [
                    "number": frame.number, "image": frame.image, "function": frame.function ?? "???", "location": frame.location ?? "",
                    "hasLocation": frame.location != nil, "inlined": frame.inlined, "offset": frame.offset.map { "+ \($0)" } ?? "",
                ]
            },
            "hasFrames": !frames.isEmpty,
            "missingImages": missingImages.enumerated().map { index, image -> [String: Any] in
                ["name": image.name, "uuid": image.uuid, "sep": index + 1 < missingImages.count ? ", " : ""]
            },
            "hasMissingImages": !missingImages.isEmpty, "missingImageWords": counted(missingImages.count, "image"),
        ]
    }

    static func context(of replay: Replay, navigation: Navigation?) -> [String: Any] {
        let width = 800
        let axisEnd = width - 20
        let times = replay.steps.map(\.t)
        let first = times.first ?? 0
        let last = times.last ?? 0
        let span = max(1, last - first)
        var markers = ""
        var stepRows = ""
        for step in replay.steps {
            let x = replay.steps.count == 1 ? Double(20 + axisEnd) / 2 : 20 + Double(step.t - first) / Double(span) * Double(axisEnd - 20)
            HTMLRows.marker(for: step, x: format2(x), into: &markers)
            HTMLRows.row(for: step, into: &stepRows)
        }
        var screenSets: [[String: Any]] = []
        if let recorded = replay.recordedFinal, replay.verified == false {
            screenSets.append(screensContext(replay.final, comparedWith: recorded, id: "replayed", caption: "Replayed"))
            screenSets.append(screensContext(recorded, comparedWith: replay.final, id: "recorded", caption: "Recorded by the app"))
        } else {
            screenSets.append(
                screensContext(replay.final, comparedWith: nil, id: "final", caption: "Each stack with its root at the bottom"))
        }
        let links: [[String: Any]] = replay.links.links.enumerated().map { index, link in
            ["url": link.url, "number": index + 1, "redacted": link.redacted]
        }
        let anomalyCount = replay.steps.filter { !$0.anomalies.isEmpty }.count
        var context: [String: Any] = [
            "title": "Replay of \(replay.report)",
            "source": "the trail of \(replay.report)",
            "report": replay.report,
            "app": "\(replay.app.bundleID) \(replay.app.version) (\(replay.app.build))",
            "session": replay.session.id, "started": replay.session.started,
            "manifest": TextReplayRenderer.fileName(of: replay.manifestSource),
            "kept": replay.steps.count, "dropped": replay.dropped, "hasDropped": replay.dropped > 0,
            "width": width, "axisEnd": axisEnd, "markers": markers, "stepRows": stepRows, "hasSteps": !replay.steps.isEmpty,
            "span": TimeText.format(milliseconds: last - first),
            "startTime": TimeText.format(milliseconds: first), "endTime": TimeText.format(milliseconds: last),
            "anomalyCount": anomalyCount, "hasAnomalies": anomalyCount > 0,
            "verified": replay.verified == true, "notVerified": replay.verified == false, "unrecorded": replay.verified == nil,
            "difference": replay.difference?.description ?? "",
            "screenSets": screenSets,
            "linkCount": replay.links.links.count, "hasLinks": !replay.links.links.isEmpty,
            "reproduces": replay.links.reproduces,
            "preconditions": replay.links.preconditions.isEmpty ? "none" : replay.links.preconditions.joined(separator: ", "),
            "links": links,
            "unreproducible": replay.links.unreproducible.map { screen -> [String: Any] in
                ["screen": screen.screen.shortText, "location": screen.location, "reason": screen.reason.explanation]
            },
            "anomalies": replay.anomalies.map { anomaly -> [String: Any] in
                ["kind": anomaly.kind.rawValue, "step": anomaly.step, "detail": anomaly.detail]
            },
        ]
        if let navigation {
            context["up"] = navigation.up
            context["upLabel"] = navigation.label
        }
        return context
    }

    /// The screens of `state`, each outlined when `other` has another screen (or none) in its place.
    static func screensContext(_ state: NavigationState, comparedWith other: NavigationState?, id: String, caption: String) -> [String: Any]
    {
        func items(_ stack: [Destination], _ otherStack: [Destination]?) -> [[String: Any]] {
            stack.enumerated().map { index, destination in
                let differs = other != nil && (otherStack.map { index < $0.count ? $0[index] != destination : true } ?? true)
                return ["text": destination.shortText, "differs": differs]
            }
        }
        func stack(_ stacks: [[Destination]]?, _ index: Int) -> [Destination]? {
            guard let stacks, index < stacks.count else { return nil }
            return stacks[index]
        }
        let hasTabs = state.tab != nil
        let tabs: [[String: Any]] = state.stacks.enumerated().map { index, destinations in
            ["index": index, "selected": index == state.tab, "screens": items(destinations, stack(other?.stacks, index))]
        }
        let modals: [[String: Any]] = state.modals.enumerated().map { index, destinations in
            ["index": index, "screens": items(destinations, stack(other?.modals, index))]
        }
        let conditions = state.conditions.sorted { CanonicalJSON.codePointPrecedes($0, $1) }
        return [
            "id": id, "caption": caption, "hasTabs": hasTabs, "tabs": tabs,
            "stack": hasTabs ? [] : items(state.stacks.first ?? [], stack(other?.stacks, 0)),
            "hasModals": !modals.isEmpty, "modals": modals,
            "conditions": conditions.isEmpty ? "none" : conditions.joined(separator: ", "),
            "pending": state.pending.map { "\($0.destination.shortText) (asked by \($0.mode.rawValue))" } ?? "",
            "hasPending": state.pending != nil,
        ]
    }

    /// A coordinate with one decimal, so pages are byte-for-byte stable.
    static func format2(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}
