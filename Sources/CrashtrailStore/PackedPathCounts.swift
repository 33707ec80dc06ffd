/// A group's path counts as a server sends them for `paths GROUP`: one row per app, inferred or not, and manifest,
/// whose `paths` column packs that row's stored paths with their counts.
///
/// A group has about as many different paths as reports with a trail (12,163 for the largest group of the
/// 100,000-report benchmark store). Sent a row each, the client spent most of `paths GROUP` decoding the rows' protocol
/// messages and columns; packed, the server sends a few rows and the client splits their text. Each path is written
/// `COUNT:BYTES:PATH` (decimal count, decimal length of the path's UTF-8, then the path itself), one after the other,
/// so no character of a path can be taken for a separator.
package enum PackedPathCounts {
    /// How many paths one row packs at most, so that a row stays far below a text's limit (1 GB) in any group.
    static let pathsPerRow = 4_096

    /// The statement, with the group's signature as its one argument.
    ///
    /// The inner query sums each key's rows as `pathCountsSQL` does and numbers the sums into chunks of
    /// ``pathsPerRow``; `convert_to` measures a path in UTF-8, the client's encoding, whatever the database's.
    package static let sql = """
        SELECT bundleID, inferred, pathManifest,
            string_agg(CAST(reports AS TEXT) || ':' || CAST(octet_length(convert_to(screenPath, 'UTF8')) AS TEXT) || ':' || screenPath, '') AS paths
        FROM (
            SELECT bundleID, inferred, screenPath, pathManifest, SUM(reports) AS reports,
                (row_number() OVER ()) / \(pathsPerRow) AS chunk
            FROM groupPathCount WHERE signature = ?
            GROUP BY bundleID, inferred, screenPath, pathManifest HAVING SUM(reports) > 0
        ) AS counts
        GROUP BY bundleID, inferred, pathManifest, chunk
        """

    /// Calls `body` with each path of `packed` (as ``sql`` writes them) and its count, in order.
    /// - Throws: `StoreError` (`database`) naming the byte where `packed` does not follow the form; what `body`
    ///   throws.
    package static func forEach(in packed: String, _ body: (_ screensJSON: String, _ reports: Int) throws -> Void) throws {
        var packed = packed
        try packed.withUTF8 { bytes throws in
            var index = 0
            func number() throws(StoreError) -> Int {
                let start = index
                var value = 0
                while index < bytes.count, bytes[index] != UInt8(ascii: ":") {
                    let digit = Int(bytes[index]) - Int(UInt8(ascii: "0"))
                    guard (0...9).contains(digit), index - start < 18 else { throw malformed(at: start) }
                    value = value * 10 + digit
                    index += 1
                }
                guard index > start, index < bytes.count else { throw malformed(at: start) }
                index += 1
                return value
            }
            while index < bytes.count {
                let reports = try number()
                let length = try number()
                guard length <= bytes.count - index else { throw malformed(at: index) }
                let path = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]), as: UTF8.self)
                index += length
                try body(path, reports)
            }
        }
    }

    private static func malformed(at offset: Int) -> StoreError {
        StoreError(
            .database, "the server's packed path counts do not read at byte \(offset); check that the store's tables are crashtrail's")
    }
}
