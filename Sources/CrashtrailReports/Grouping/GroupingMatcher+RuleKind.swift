extension GroupingMatcher {
    /// The two kinds of grouping rule, each with the matcher keys its Sentry grammar takes.
    ///
    /// A rule's kind is known only at its end (`->` makes it a fingerprint rule), so its keys are resolved then. The
    /// keys a kind takes and the list an unknown key's message gives are read from one table, so the two cannot part.
    enum RuleKind: Sendable {
        /// `MATCHERS -> FINGERPRINT`.
        case fingerprint
        /// `MATCHERS ACTIONS`.
        case stackTrace

        /// Each key the kind takes and the field it compares, the main name before its aliases.
        var keys: [(key: String, field: Field)] {
            switch self {
            case .fingerprint: Self.fingerprintKeys
            case .stackTrace: Self.stackTraceKeys
            }
        }

        /// The field `key` compares in a rule of this kind; nil for a key the kind does not take.
        func field(_ key: String) -> Field? {
            if let entry = keys.first(where: { $0.key == key }) { return entry.field }
            // Fingerprint rules match any tag; crashtrail's reports have none.
            if self == .fingerprint, key.hasPrefix("tags."), key.count > 5 { return .absent(key) }
            return nil
        }

        /// The rules of this kind, as a message names them.
        var noun: String {
            switch self {
            case .fingerprint: "fingerprint rules"
            case .stackTrace: "stack-trace rules"
            }
        }

        /// Every key the kind takes, for an unknown key's message: `type, error.type, value, …`.
        var keyList: String {
            keys.map(\.key).joined(separator: ", ") + (self == .fingerprint ? ", tags.NAME" : "")
        }

        private static let frameKeys: [(key: String, field: Field)] = [
            ("function", .function), ("stack.function", .function), ("module", .module), ("stack.module", .module),
            ("path", .path), ("stack.abs_path", .path), ("package", .package), ("stack.package", .package), ("app", .app),
            ("family", .family),
        ]

        private static let fingerprintKeys: [(key: String, field: Field)] =
            [("type", .type), ("error.type", .type), ("value", .value), ("error.value", .value), ("message", .message)]
            + frameKeys
            + [("level", .level), ("release", .release), ("thread.crashed", .threadCrashed)]
            + ["logger", "sdk", "thread.id", "thread.name", "thread.state", "thread.current"].map { ($0, Field.absent($0)) }

        private static let stackTraceKeys: [(key: String, field: Field)] =
            [
                ("type", .type), ("error.type", .type), ("value", .value), ("error.value", .value), ("mechanism", .mechanism),
                ("error.mechanism", .mechanism),
            ] + frameKeys + [("category", .category)]
    }
}
