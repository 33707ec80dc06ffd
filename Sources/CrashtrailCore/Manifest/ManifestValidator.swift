/// Checks the rules that make a manifest workable (SPEC section 3).
struct ManifestValidator {
    let manifest: Manifest
    let lines: ManifestLines

    func validate() throws(ManifestError) {
        try validateConditions()
        try validateRequirements()
        try validateTabs()
        try validateRoot()
        try validateTemplates()
        if manifest.modalTransition < 0 {
            throw error(.invalidField, "transitions.modal is \(manifest.modalTransition); give a duration in milliseconds, 0 or more")
        }
    }

    private func error(_ code: ManifestError.Code, line: Int? = nil, destination: String? = nil, _ message: String) -> ManifestError {
        ManifestError(code, source: manifest.source, line: line, destination: destination, message)
    }

    private var destinationNames: String {
        manifest.destinations.map(\.name).joined(separator: ", ")
    }

    private func validateConditions() throws(ManifestError) {
        for condition in manifest.conditions {
            let line = lines.conditions[condition.name]
            guard !condition.flow.isEmpty else {
                throw error(
                    .conditionWithoutFlow, line: line,
                    "condition \"\(condition.name)\" has no flow; name the destination presented when it is missing, e.g. { flow: login }")
            }
            guard let flow = manifest.spec(named: condition.flow) else {
                throw error(
                    .invalidFlow, line: line,
                    "condition \"\(condition.name)\" has flow \"\(condition.flow)\", which is no destination; known destinations: \(destinationNames)"
                )
            }
            if flow.gate {
                throw error(
                    .invalidFlow, line: lines.destinations[flow.name], destination: flow.name,
                    "is the flow of condition \"\(condition.name)\" but is a gate; a flow is presented over the app and must not close the way back"
                )
            }
            if !flow.requires.isEmpty {
                throw error(
                    .invalidFlow, line: lines.destinations[flow.name], destination: flow.name,
                    "is the flow of condition \"\(condition.name)\" but requires \(flow.requires.joined(separator: ", ")); a flow must be reachable without conditions"
                )
            }
            if let route = flow.route, !route.placeholders.isEmpty {
                throw error(
                    .invalidFlow, line: lines.destinations[flow.name], destination: flow.name,
                    "is the flow of condition \"\(condition.name)\" but its URL has placeholders; the Navigator presents a flow without parameters"
                )
            }
        }
    }

    private func validateRequirements() throws(ManifestError) {
        for spec in manifest.destinations {
            for name in spec.requires where manifest.condition(named: name) == nil {
                let known = manifest.conditions.map(\.name).joined(separator: ", ")
                throw error(
                    .unknownCondition, line: lines.destinations[spec.name], destination: spec.name,
                    "requires unknown condition \"\(name)\"; declared conditions: \(known.isEmpty ? "none" : known)")
            }
        }
    }

    private func validateTabs() throws(ManifestError) {
        var seen: Set<String> = []
        for tab in manifest.tabs {
            guard seen.insert(tab).inserted else {
                throw error(.invalidTabRoot, line: lines.tabs, "tab \"\(tab)\" is listed twice")
            }
            guard let spec = manifest.spec(named: tab) else {
                throw error(
                    .invalidTabRoot, line: lines.tabs, "tab root \"\(tab)\" is no destination; known destinations: \(destinationNames)")
            }
            if let route = spec.route, !route.placeholders.isEmpty {
                throw error(
                    .invalidTabRoot, line: lines.destinations[tab], destination: tab,
                    "is a tab root but its URL has placeholders; the Navigator creates tab roots without parameters")
            }
        }
    }

    private func validateRoot() throws(ManifestError) {
        guard let root = manifest.root else {
            if manifest.tabs.isEmpty {
                throw error(.missingRoot, "an app without tabs needs a root: the destination shown at launch, e.g. root: welcome")
            }
            return
        }
        if !manifest.tabs.isEmpty {
            throw error(
                .invalidRoot, line: lines.root,
                "root \"\(root)\" is given together with tabs; an app with a tab bar launches on its first tab, so remove root or tabs")
        }
        guard let spec = manifest.spec(named: root) else {
            throw error(.invalidRoot, line: lines.root, "root \"\(root)\" is no destination; known destinations: \(destinationNames)")
        }
        if let route = spec.route, !route.placeholders.isEmpty {
            throw error(
                .invalidRoot, line: lines.destinations[root], destination: root,
                "is the root but its URL has placeholders; the launch destination has no parameters")
        }
    }

    private func validateTemplates() throws(ManifestError) {
        var shapes: [String: String] = [:]
        for spec in manifest.destinations {
            guard let route = spec.route else { continue }
            if let other = shapes[route.shape] {
                throw error(
                    .duplicateTemplate, line: lines.destinations[spec.name], destination: spec.name,
                    "its URL template \"\(route.text)\" matches exactly the same links as destination \"\(other)\"'s; make one of them distinct"
                )
            }
            shapes[route.shape] = spec.name
        }
    }
}
