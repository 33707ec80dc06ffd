import CrashtrailReports
import Foundation

/// A value bound to a statement or read from a column, in the types both backends share.
package enum StoreValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    package init(_ value: String?) { self = value.map(StoreValue.text) ?? .null }
    package init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    package init(_ value: Int64?) { self = value.map(StoreValue.integer) ?? .null }
    package init(_ value: Data) { self = .blob(value) }
    /// A project's number.
    package init(_ project: ProjectID) { self = .integer(Int64(project.rawValue)) }
    /// A scope as a `project` column keeps it: the project's number, 0 for every project and for none.
    package init(_ scope: ProjectScope) { self = .integer(Int64(scope.project?.rawValue ?? 0)) }

    /// The text, or nil for any other value.
    package var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The integer; a real with no fraction and text holding an integer (a numeric SUM, say) read as one too.
    package var integer: Int64? {
        switch self {
        case .integer(let value): return value
        case .real(let value): return value.rounded() == value && abs(value) < 9e18 ? Int64(value) : nil
        case .text(let text): return Int64(text)
        default: return nil
        }
    }

    /// The number as a real: a real, or an integer read as one.
    package var real: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    package var isNull: Bool { self == .null }
}

extension StoreValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    package init(stringLiteral value: String) { self = .text(value) }
    package init(integerLiteral value: Int64) { self = .integer(value) }
}

extension String {
    /// Whether the text holds U+0000, which a backend binds or keeps otherwise than other characters.
    ///
    /// The UTF-8 is searched with `memchr`: every text an insert binds is asked, payloads among them.
    package var holdsNUL: Bool {
        utf8.withContiguousStorageIfAvailable { bytes in
            guard let start = bytes.baseAddress, !bytes.isEmpty else { return false }
            return memchr(start, 0, bytes.count) != nil
        } ?? utf8.contains(0)
    }
}

extension StoreValue {
    /// Whether this is a text whose UTF-8 is exactly `bytes`: a reader then keeps this value instead of decoding the
    /// same text again (rows that repeat their app, version or manifest).
    package func isText(equalTo bytes: UnsafeRawBufferPointer) -> Bool {
        guard case .text(var text) = self else { return false }
        return text.withUTF8 { utf8 in
            guard utf8.count == bytes.count else { return false }
            guard let start = utf8.baseAddress, let other = bytes.baseAddress, !bytes.isEmpty else { return true }
            return memcmp(start, other, bytes.count) == 0
        }
    }
}
