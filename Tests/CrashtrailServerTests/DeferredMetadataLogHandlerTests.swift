import Logging
import Synchronization
import Testing

@testable import CrashtrailServer

/// `serve`'s log handler writes what swift-log's `StreamLogHandler` writes, formatting metadata only when it writes.
@Suite("serve's log handler")
struct DeferredMetadataLogHandlerTests {
    /// The lines written, shared by the handler's copies.
    final class Lines: TextOutputStream, Sendable {
        let lines = Mutex<[String]>([])
        func write(_ string: String) { lines.withLock { $0.append(string) } }
        /// Each line without its timestamp (its first word), which differs between two handlers' lines.
        var untimed: [String] { lines.withLock { $0 }.map { String($0.drop { $0 != " " }) } }
    }

    /// The same messages, metadata and levels through a logger.
    static func write(to logger: inout Logger) {
        logger.logLevel = .info
        logger[metadataKey: "hb.request.id"] = "1"
        logger.debug("not written")
        logger.info("stored", metadata: ["count": "2"])
        logger[metadataKey: "hb.request.id"] = nil
        // An array, not a dictionary: a dictionary value prints in its own order, which differs between two instances.
        logger[metadataKey: "project"] = .array(["1", .array(["a", "b"])])
        logger.warning("refused")
        logger.error("plain", metadata: [:])
    }

    @Test("Lines come out as StreamLogHandler writes them")
    func sameLines() {
        let (deferred, stream) = (Lines(), Lines())
        var deferredLogger = Logger(label: "crashtrail.serve") { label in
            DeferredMetadataLogHandler(StreamLogHandler(label: label, stream: deferred, metadataProvider: nil))
        }
        var streamLogger = Logger(label: "crashtrail.serve") { label in
            StreamLogHandler(label: label, stream: stream, metadataProvider: nil)
        }
        Self.write(to: &deferredLogger)
        Self.write(to: &streamLogger)
        #expect(deferred.untimed.count == 3)
        #expect(deferred.untimed == stream.untimed)
        #expect(deferred.untimed.first?.contains("count=2 hb.request.id=1") == true)
    }

    @Test("Metadata is a value: a copy's changes stay in the copy")
    func metadataIsAValue() {
        var logger = Logger(label: "x", factory: DeferredMetadataLogHandler.standardError)
        logger[metadataKey: "a"] = "1"
        var copy = logger
        copy[metadataKey: "a"] = "2"
        #expect(logger[metadataKey: "a"] == "1")
        #expect(copy[metadataKey: "a"] == "2")
        copy.logLevel = .error
        #expect(logger.logLevel == .info)
    }
}
