import CrashtrailCore

/// The last screens of a report's trail as a manifest replays them (`ScreenPath`), kept with the report when its
/// trail is attached so `paths` and the site read them instead of replaying every trail.
package struct StoredScreenPath: Hashable, Sendable {
    /// Up to `ScreenPath/storedCount` last screens, ending with the screen at the crash.
    package var screens: [String]
    /// The `Manifest.fingerprint` of the manifest that replayed them: a reader with another manifest replays.
    package var manifest: String

    package init(screens: [String], manifest: String) {
        self.screens = screens
        self.manifest = manifest
    }

    /// The stored path of `trail` replayed with `manifest`.
    package init(trail: Trail, manifest: Manifest) {
        self.init(
            screens: ScreenPath.lastScreens(ScreenPath.names(of: trail, manifest: manifest), count: ScreenPath.storedCount),
            manifest: manifest.fingerprint)
    }

    /// The last `count` screens, when `manifest` is the one that replayed them and `count` is at most
    /// `ScreenPath/storedCount`; nil when the trail must be replayed instead.
    package func lastScreens(_ count: Int, replayedWith manifest: Manifest) -> [String]? {
        guard self.manifest == manifest.fingerprint, count <= ScreenPath.storedCount else { return nil }
        return ScreenPath.lastScreens(screens, count: count)
    }

    /// The screens as a column holds them: canonical JSON, an array of names.
    package var screensJSON: String { CanonicalJSON.string(of: .array(screens.map(JSONValue.string))) }

    /// A path from its columns; nil when either is missing or the screens do not read as an array of names.
    package init?(screensJSON: String?, manifest: String?) {
        guard let screensJSON, let manifest, let names = Self.plainNames(screensJSON) ?? Self.parsedNames(screensJSON) else {
            return nil
        }
        self.init(screens: names, manifest: manifest)
    }

    /// Calls `body` with the UTF-8 bytes of each of the last `count` names of the screens as a column holds them,
    /// when they are in the form the store writes for names without escapes (`["A","B"]`), and returns true; returns
    /// false, without calling it, for anything else, which ``init(screensJSON:manifest:)`` reads.
    ///
    /// No string is made: `paths` reads one path for each different path of a group.
    package static func withLastNames(_ screensJSON: String, count: Int, _ body: ([UnsafeBufferPointer<UInt8>]) -> Void) -> Bool {
        var json = screensJSON
        return json.withUTF8 { bytes in
            // Each name takes at least three bytes (two quotes and a comma or the closing bracket).
            withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: bytes.count / 3 + 1) { ranges in
                guard let found = plainNameRanges(bytes, into: ranges) else { return false }
                body(ranges[(found - min(found, max(0, count)))..<found].map { UnsafeBufferPointer(rebasing: bytes[$0]) })
                return true
            }
        }
    }

    /// The names of an array of strings as the store writes it for names without escapes (`["A","B"]`).
    ///
    /// Nil for anything else, which `parsedNames(_:)` reads.
    static func plainNames(_ json: String) -> [String]? {
        var names: [String]?
        return withLastNames(json, count: .max, { names = $0.map { String(decoding: $0, as: UTF8.self) } }) ? names : nil
    }

    /// Writes the range of each name's bytes into `ranges` and returns how many there are, when `bytes` are an array of
    /// strings without escapes or control characters; nil for anything else.
    private static func plainNameRanges(_ bytes: UnsafeBufferPointer<UInt8>, into ranges: UnsafeMutableBufferPointer<Range<Int>>) -> Int? {
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        let comma = UInt8(ascii: ",")
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "["), bytes[bytes.count - 1] == UInt8(ascii: "]") else { return nil }
        let end = bytes.count - 1
        var index = 1
        var count = 0
        guard index < end else { return 0 }
        while true {
            guard bytes[index] == quote else { return nil }
            let start = index + 1
            var close = start
            while close < end, bytes[close] != quote {
                guard bytes[close] != backslash, bytes[close] >= 0x20 else { return nil }
                close += 1
            }
            guard close < end, count < ranges.count else { return nil }
            ranges[count] = start..<close
            count += 1
            index = close + 1
            if index == end { return count }
            guard bytes[index] == comma else { return nil }
            index += 1
        }
    }

    /// The names of a JSON array of strings, by the JSON parser; nil when it is not one.
    static func parsedNames(_ json: String) -> [String]? {
        guard case .array(let values)? = try? JSONParser.parse(json) else { return nil }
        let names = values.compactMap(\.stringValue)
        return names.count == values.count ? names : nil
    }
}
