import CrashtrailCore

/// The numbers of the body's grammar (docs/ENCODING.md, "Body").
enum BodyCode {
    /// Bits of the body's first byte.
    enum Field {
        static let hasBase: UInt8 = 0x01
        static let hasFinal: UInt8 = 0x02
        static let bundleIDIsManifestApp: UInt8 = 0x04
        static let sessionIDUpperUUID: UInt8 = 0x08
        static let sessionIDLowerUUID: UInt8 = 0x10
        /// Version 1: the session start is seconds since 2020 (a signed varint) instead of a string.
        static let startedIsSeconds: UInt8 = 0x20
        /// Version 2: the raw column is inside the deflate stream, its length after the forms byte, instead of
        /// after the stream (for long trails, whose raw bytes deflate).
        static let rawIsDeflated: UInt8 = 0x20
        static let baseIsLaunchState: UInt8 = 0x40
        static let finalIsReplayed: UInt8 = 0x80
    }

    /// Bits of format version 2's second byte: how the app's version and build and the session start are written.
    enum Forms {
        /// Bits 0–2: the version as that many dotted decimal numbers (varints), 0 for a string.
        static let versionShift: UInt8 = 0
        /// Bits 3–5: the build, likewise.
        static let buildShift: UInt8 = 3
        static let countMask: UInt8 = 0x07
        /// Bits 6–7: the session start's ``CompactFields/StartedForm``.
        static let startedShift: UInt8 = 6
    }

    /// Op bytes below 0x80 carry a destination: `kind << 5 | slot`.
    enum DestinationKind: UInt8 {
        case push = 0
        case present = 1
        case openDestination = 2
        /// An `open` whose URL is exactly the manifest's printed URL of the destination.
        case openPrintedURL = 3
    }

    /// Slot 0: a new destination follows in the arguments; 1…30: table index slot − 1; 31: the index − 30 follows.
    static let newSlot: UInt8 = 0
    static let escapeSlot: UInt8 = 31
    static let foldedSlots: UInt8 = 30

    static let pop: UInt8 = 0x80
    static let popToRoot: UInt8 = 0x81
    static let dismiss: UInt8 = 0x82
    static let completeFailure: UInt8 = 0x83
    static let completeSuccess: UInt8 = 0x84
    /// An `open` whose URL is written out (interned).
    static let openURL: UInt8 = 0x85
    /// `select`: low nibble the tab 0…14, or 15 and a signed varint follows.
    static let select: UInt8 = 0x90
    /// `satisfy` / `revoke`: low nibble 0 for a new condition name, 1…14 table index + 1, 15 an escape.
    static let satisfy: UInt8 = 0xA0
    static let revoke: UInt8 = 0xB0
    static let nibbleEscape: UInt8 = 15

    /// Value tags in destination payloads.
    enum Value: UInt8 {
        case null = 0
        case `false` = 1
        case `true` = 2
        case int = 3
        case newString = 4
        case stringReference = 5
        case object = 6
        case array = 7
        /// A new string with the prefix and digit count of the last numbered string at the same place (same
        /// destination name and key path): only the packed digits follow.
        case numberedLikeLast = 9
    }

    /// The shape reference that introduces a new shape.
    ///
    /// A new destination's name reference is `(0 or name index + 1) * 4 + flags` (``NameFlag``). Unless the
    /// flags say the payload has the name's expected shape (its template's keys, or the last shape seen with
    /// that name), a shape reference follows: 0 for a new shape listed in full, else the shape's table index + 1.
    static let newShape = 0

    /// The low two bits of a new destination's name reference.
    enum NameFlag {
        /// The payload has the name's expected shape; no shape reference follows.
        static let expectedShape = 1
        /// As ``expectedShape``, and every value is a new string with the prefix and digit count of the last
        /// numbered string at its place: only each value's packed digits follow, without tags.
        static let allNumberedLikeLast = 3
    }

    /// Separates a place's parts (destination name, keys) in the key of ``Value/numberedLikeLast``'s memory;
    /// 0xFF never occurs in UTF-8.
    static let placeSeparator: UInt8 = 0xFF
    static let arrayElementMarker: UInt8 = 0xFE

    /// Tags `numberedStringBase + n` (n = 1…64): a new string that ends in n decimal digits, followed by its
    /// prefix (interned) and the digits packed (``DecimalDigits``).
    static let numberedStringBase: UInt8 = 16

    /// Version 3's ending byte, after the process ID: 0 none, then crashed, killed, exited.
    static func ending(_ ending: Trail.Session.Ending?) -> UInt8 {
        switch ending {
        case nil: 0
        case .crashed: 1
        case .killed: 2
        case .exited: 3
        }
    }

    /// The ending a version 3 ending byte names; nil for 0; throws for a byte no encoder writes.
    static func ending(byte: UInt8) -> Trail.Session.Ending?? {
        switch byte {
        case 0: .some(nil)
        case 1: .crashed
        case 2: .killed
        case 3: .exited
        default: nil
        }
    }

    /// Pending destination modes in a state.
    static let noPending: UInt8 = 0
}
