/// A value at a known place in a document, with typed accessors whose errors name that place.
package struct JSONField: Sendable {
    package var value: JSONValue
    package var path: String

    package init(_ value: JSONValue, path: String) {
        self.value = value
        self.path = path
    }

    package func string() throws(TrailError) -> String {
        guard case .string(let string) = value else { throw typeError("a string") }
        return string
    }

    package func int() throws(TrailError) -> Int64 {
        guard case .int(let int) = value else { throw typeError("an integer") }
        return int
    }

    package func bool() throws(TrailError) -> Bool {
        guard case .bool(let bool) = value else { throw typeError("a boolean") }
        return bool
    }

    package func destination() throws(TrailError) -> Destination {
        do {
            return try Destination(jsonValue: value)
        } catch {
            throw TrailError(.invalidDestination, at: path, error.message)
        }
    }

    /// The elements of an array, each transformed with its own path (`path[index]`).
    package func array<Element>(_ transform: (JSONField, String) throws(TrailError) -> Element) throws(TrailError) -> [Element] {
        guard case .array(let array) = value else { throw typeError("an array") }
        var result: [Element] = []
        result.reserveCapacity(array.count)
        for (index, element) in array.enumerated() {
            let elementPath = "\(path)[\(index)]"
            result.append(try transform(JSONField(element, path: elementPath), elementPath))
        }
        return result
    }

    func typeError(_ expected: String) -> TrailError {
        TrailError(.wrongType, at: path, "expected \(expected), found \(value.kindName)")
    }
}

/// The fields of an object that may hold only the named keys.
package struct JSONFields: Sendable {
    package var object: [String: JSONValue]
    package var path: String

    /// - Throws: `TrailError` when `value` is not an object or holds a key outside `allowed`.
    package init(_ value: JSONValue, path: String, allowed: Set<String>) throws(TrailError) {
        guard case .object(let object) = value else {
            throw TrailError(.wrongType, at: path, "expected an object, found \(value.kindName)")
        }
        if let unknown = object.keys.filter({ !allowed.contains($0) }).sorted(by: CanonicalJSON.codePointPrecedes).first {
            let names = allowed.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            throw TrailError(.unknownField, at: Self.join(path, unknown), "unknown field \"\(unknown)\"; allowed here: \(names)")
        }
        self.object = object
        self.path = path
    }

    package func required(_ key: String) throws(TrailError) -> JSONField {
        guard let value = object[key] else {
            throw TrailError(.missingField, at: Self.join(path, key), "missing required field \"\(key)\"")
        }
        return JSONField(value, path: Self.join(path, key))
    }

    package func optional(_ key: String) -> JSONField? {
        object[key].map { JSONField($0, path: Self.join(path, key)) }
    }

    static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }
}
