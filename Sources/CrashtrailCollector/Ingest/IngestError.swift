/// Why an ingest run could not run at all (as opposed to refusing single inputs, which it reports and goes on).
public struct IngestError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public var description: String { name }
        /// The store could not be written.
        public static let store = Code(name: "store")
        /// The quarantine folder could not be written.
        public static let quarantine = Code(name: "quarantine")
        /// The trails folder could not be read.
        public static let trails = Code(name: "trails")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
