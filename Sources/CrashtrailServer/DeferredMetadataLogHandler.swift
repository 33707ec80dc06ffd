import Logging

/// A log handler that writes exactly as swift-log's `StreamLogHandler` does, and formats its metadata only for a message
/// it writes.
///
/// Hummingbird sets a request ID on the logger of every request. `StreamLogHandler` formats its whole metadata each
/// time a key is set, so every request paid for text that is printed only when something is logged: setting the
/// logger's metadata took about 7 µs of CPU a request under `serve`'s bench (`Tools/serve-profile.sh`), 3 with this
/// handler, where `--quiet` logs nothing.
package struct DeferredMetadataLogHandler: LogHandler {
    /// Writes the messages; its own metadata is set only for the message being written.
    private var stream: StreamLogHandler

    package var metadata: Logger.Metadata = [:]

    package var metadataProvider: Logger.MetadataProvider? {
        get { stream.metadataProvider }
        set { stream.metadataProvider = newValue }
    }

    package var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    /// A handler that writes through `stream`, which should carry no metadata of its own.
    package init(_ stream: StreamLogHandler) {
        self.stream = stream
    }

    /// A handler that writes to standard error, as swift-log's default does.
    package static func standardError(label: String) -> DeferredMetadataLogHandler {
        DeferredMetadataLogHandler(StreamLogHandler.standardError(label: label))
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var stream = stream
        stream.metadata = metadata
        stream.log(event: event)
    }
}
