public import Foundation
import Yams

extension Manifest {
    /// Reads a manifest from YAML or JSON text (JSON is read as the YAML it also is, so both give line numbers).
    /// - Parameters:
    ///   - text: the manifest.
    ///   - source: where it came from, for messages (a file path).
    /// - Throws: `ManifestError` with the line and destination of the problem.
    public init(yaml text: String, source: String = "manifest") throws(ManifestError) {
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw ManifestError(.unreadable, source: source, "the manifest is empty; it needs app and destinations")
            }
            root = node
        } catch let error as ManifestError {
            throw error
        } catch let error as YamlError {
            throw ManifestError(
                .unreadable, source: source, line: Self.line(of: error), "not valid YAML or JSON: \(Self.problem(of: error))")
        } catch {
            throw ManifestError(.unreadable, source: source, "not valid YAML or JSON: \(error)")
        }
        try self.init(node: root, source: source)
    }

    /// Reads a manifest file (`.yml`, `.yaml` or `.json`).
    /// - Throws: `ManifestError` when the file cannot be read or the manifest cannot work.
    public init(contentsOf url: URL) throws(ManifestError) {
        try self.init(contentsOfFile: url.path)
    }

    /// Reads a manifest file, naming it in messages by `path` as given (a relative path stays relative).
    /// - Throws: `ManifestError` when the file cannot be read or the manifest cannot work.
    public init(contentsOfFile path: String) throws(ManifestError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw ManifestError(
                .unreadable, source: path,
                exists ? "cannot read the manifest file; check its permissions" : "cannot read the manifest file: no such file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ManifestError(.unreadable, source: path, "the manifest is not UTF-8 text")
        }
        try self.init(yaml: text, source: path)
    }

    private static func line(of error: YamlError) -> Int? {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): mark.line
        case .duplicatedKeysInMapping(_, let context): context.mark.line
        default: nil
        }
    }

    private static func problem(of error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _): problem
        case .duplicatedKeysInMapping(let duplicates, _): "duplicate key(s) \(duplicates.joined(separator: ", "))"
        default: "\(error)"
        }
    }

    private init(node root: Node, source: String) throws(ManifestError) {
        let top = try ManifestNode(root, source: source, context: "the manifest")
        let fields = try top.mapping(allowed: ["app", "tabs", "root", "transitions", "conditions", "destinations"])
        let app = try fields.required("app").string()
        var lines = ManifestLines()
        var tabs: [String] = []
        if let node = fields["tabs"] {
            lines.tabs = node.line
            tabs = try node.strings()
            if tabs.isEmpty {
                throw ManifestError(.invalidTabRoot, source: source, line: node.line, "tabs is empty; list the tab roots or remove tabs")
            }
        }
        var root: String?
        if let node = fields["root"] {
            lines.root = node.line
            root = try node.string()
        }
        var modalTransition: Int64 = 500
        if let node = fields["transitions"] {
            let transitionFields = try node.mapping(allowed: ["modal"])
            if let modal = transitionFields["modal"] { modalTransition = try modal.int() }
        }
        var conditions: [Condition] = []
        if let node = fields["conditions"] {
            for (name, value) in try node.pairs() {
                lines.conditions[name] = value.line
                let conditionFields = try value.mapping(allowed: ["flow"])
                let flow = try conditionFields["flow"]?.string() ?? ""
                conditions.append(Condition(name: name, flow: flow))
            }
        }
        var destinations: [DestinationSpec] = []
        for (name, value) in try fields.required("destinations").pairs() {
            lines.destinations[name] = value.line
            destinations.append(try Self.destination(name: name, node: value, source: source))
        }
        try self.init(
            app: app, tabs: tabs, root: root, modalTransition: modalTransition, conditions: conditions,
            destinations: destinations, source: source, lines: lines)
    }

    private static func destination(name: String, node: ManifestNode, source: String) throws(ManifestError) -> DestinationSpec {
        let fields = try node.mapping(
            allowed: ["url", "presentation", "requires", "gate", "redact", "screen", "screens"], destination: name)
        var route: RouteTemplate?
        if let url = fields["url"] {
            let text = try url.string()
            do {
                route = try RouteTemplate(text)
            } catch {
                throw ManifestError(.invalidTemplate, source: source, line: url.line, destination: name, error.message)
            }
        }
        var presentation = Presentation.push
        if let node = fields["presentation"] {
            let text = try node.string()
            guard let value = Presentation(rawValue: text) else {
                throw ManifestError(
                    .invalidField, source: source, line: node.line, destination: name,
                    "presentation \"\(text)\" is unknown; use push (the default) or modal")
            }
            presentation = value
        }
        var requires: [String] = []
        if let node = fields["requires"] {
            requires = try node.stringOrStrings()
        }
        let gate = try fields["gate"]?.bool() ?? false
        var redact: [[String]] = []
        if let node = fields["redact"] {
            let keys = try node.stringOrStrings()
            // A key names a placeholder's payload path, or the start of one (`id` for `{id.rawValue}`).
            let paths = route?.placeholders.map(\.path) ?? []
            for key in keys {
                let path = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                guard !path.contains(""), paths.contains(where: { $0.starts(with: path) }) else {
                    let known = paths.map { $0.joined(separator: ".") }
                    throw ManifestError(
                        .invalidRedact, source: source, line: node.line, destination: name,
                        "redact names \"\(key)\", which is no placeholder or payload path of \(name)'s template"
                            + (known.isEmpty ? " (it has no placeholders)" : "; its placeholders are \(known.joined(separator: ", "))"))
                }
                if !redact.contains(path) { redact.append(path) }
            }
        }
        return DestinationSpec(
            name: name, route: route, presentation: presentation, requires: requires, gate: gate, redact: redact,
            screens: try screens(fields, destination: name, source: source))
    }

    /// The `screen:` name and the `screens:` names of a destination, in order, each once.
    private static func screens(_ fields: ManifestMapping, destination: String, source: String) throws(ManifestError) -> [String] {
        var screens: [String] = []
        for key in ["screen", "screens"] {
            guard let node = fields[key] else { continue }
            let names = try node.stringOrStrings()
            for screen in names {
                guard !screen.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw ManifestError(
                        .invalidField, source: source, line: node.line, destination: destination, "\(key) names an empty screen")
                }
                if !screens.contains(screen) { screens.append(screen) }
            }
        }
        return screens
    }
}

/// A YAML node with typed accessors whose errors name the line.
private struct ManifestNode {
    let node: Node
    let source: String
    let context: String
    var destination: String?

    init(_ node: Node, source: String, context: String, destination: String? = nil) throws(ManifestError) {
        self.node = node
        self.source = source
        self.context = context
        self.destination = destination
        if case .alias = node {
            throw ManifestError(
                .unreadable, source: source, line: line, destination: destination, "\(context) uses a YAML alias; write the value out")
        }
    }

    var line: Int? { node.mark?.line }

    var isSequence: Bool {
        if case .sequence = node { return true }
        return false
    }

    func error(_ message: String) -> ManifestError {
        ManifestError(.invalidField, source: source, line: line, destination: destination, message)
    }

    func string() throws(ManifestError) -> String {
        guard case .scalar(let scalar) = node else { throw error("\(context) must be a text value") }
        return scalar.string
    }

    func int() throws(ManifestError) -> Int64 {
        guard case .scalar(let scalar) = node, let value = Int64(scalar.string) else {
            throw error("\(context) must be an integer")
        }
        return value
    }

    func bool() throws(ManifestError) -> Bool {
        guard let value = node.bool else { throw error("\(context) must be true or false") }
        return value
    }

    func sequence() throws(ManifestError) -> [ManifestNode] {
        guard case .sequence(let sequence) = node else { throw error("\(context) must be a list") }
        var result: [ManifestNode] = []
        for (index, element) in sequence.enumerated() {
            result.append(try ManifestNode(element, source: source, context: "\(context)[\(index)]", destination: destination))
        }
        return result
    }

    /// The text values of a list, in order.
    func strings() throws(ManifestError) -> [String] {
        var strings: [String] = []
        for element in try sequence() { strings.append(try element.string()) }
        return strings
    }

    /// The text values of a list, or a single text value as a list of one.
    func stringOrStrings() throws(ManifestError) -> [String] {
        isSequence ? try strings() : [try string()]
    }

    func pairs() throws(ManifestError) -> [(String, ManifestNode)] {
        guard case .mapping(let mapping) = node else { throw error("\(context) must be a mapping") }
        var result: [(String, ManifestNode)] = []
        for (key, value) in mapping {
            guard case .scalar(let scalar) = key else { throw error("\(context) has a key that is not text") }
            result.append(
                (scalar.string, try ManifestNode(value, source: source, context: "\(context).\(scalar.string)", destination: destination)))
        }
        return result
    }

    func mapping(allowed: [String], destination: String? = nil) throws(ManifestError) -> ManifestMapping {
        var this = self
        if let destination { this.destination = destination }
        var fields: [String: ManifestNode] = [:]
        for (key, var value) in try this.pairs() {
            guard allowed.contains(key) else {
                throw ManifestError(
                    .unknownKey, source: source, line: value.line, destination: this.destination,
                    "unknown key \"\(key)\" in \(context); allowed: \(allowed.joined(separator: ", "))")
            }
            if let destination { value.destination = destination }
            fields[key] = value
        }
        return ManifestMapping(owner: this, fields: fields)
    }
}

private struct ManifestMapping {
    let owner: ManifestNode
    let fields: [String: ManifestNode]

    subscript(key: String) -> ManifestNode? { fields[key] }

    func required(_ key: String) throws(ManifestError) -> ManifestNode {
        guard let value = fields[key] else { throw owner.error("\(owner.context) is missing \"\(key)\"") }
        return value
    }
}
