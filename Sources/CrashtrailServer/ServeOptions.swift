import CrashtrailCore
import CrashtrailIntake
import CrashtrailReports
import CrashtrailStore
import Foundation

/// How `crashtrail serve` runs (SPEC section 14).
public struct ServeOptions: Sendable {
    /// The address it listens on: a host name or IP address.
    public var host: String
    /// The port; 0 takes a free one (the DSNs printed at start name it).
    public var port: Int
    /// The projects given on the command line (`--project ID=KEY`); when empty, the store's (one made when it has
    /// none).
    public var projects: [Project]
    /// The base of the DSNs printed, when the service is reached by another address than it listens on (a reverse
    /// proxy's): `https://crashes.example.com`.
    public var publicURL: String?
    /// Where payloads that were read but refused are kept, each with its reason (as `ingest --quarantine`).
    public var quarantineDirectory: String
    /// How many reports may wait for a commit before requests are answered 429.
    public var backlog: Int
    /// The most reports one transaction stores.
    public var batchSize: Int
    /// How long a connection may stay silent (between requests, or in the middle of one) before it is closed.
    public var idleTimeout: Duration
    /// How far a crash's launch time may be from a posted trail's `session.started`, in milliseconds.
    public var joinTolerance: Int64
    /// The most steps an embedded trail may have; more is refused as undecodable.
    public var maximumTrailSteps: Int
    /// The operator's token, which opens every read (pages, JSON, `/metrics`).
    ///
    /// It is sent as `Authorization: Bearer TOKEN` or as basic authentication's password, beside the store's `read`
    /// tokens, and never printed.
    public var readToken: String?
    /// Whether anyone may read, without a token (`--public-read`).
    ///
    /// Reads are closed by default, on loopback too.
    public var publicRead: Bool
    /// The limits that keep any client, keyed or not, from growing the service's memory, disk or metrics (SPEC
    /// section 19).
    public var trust: Trust
    /// Sentry's limits on what one request may carry.
    public var limits: Limits
    /// The upstreams' DSNs every stored report is forwarded to, enriched with its trail (SPEC section 17).
    public var forward: [String]
    /// Whether forwarded events carry crashtrail's signature as their fingerprint, so the upstream groups as
    /// crashtrail does.
    public var forwardGrouping: Bool
    /// How long a report without a trail waits for its trail file before it is forwarded without one.
    public var forwardHold: Duration
    /// How long a posted trail no stored crash awaits is kept for its crash (SPEC section 18).
    public var trailWait: Duration
    /// The most trails kept waiting for their crashes; past it a trail is answered 429.
    public var maximumWaitingTrails: Int
    /// The most bytes of trails (their canonical JSON) kept waiting; past it a trail is answered 429.
    public var maximumWaitingTrailBytes: Int64

    /// The limits of SPEC section 19, each with its default.
    public struct Trust: Sendable {
        /// The events (crash reports) a minute a project may send, unless `crashtrail project limit` set its own.
        ///
        /// 0 for no limit; 6,000 by default.
        public var eventsPerMinute: Int
        /// The trail files a minute a project may post to `/api/ID/trails`.
        ///
        /// 0 for no limit; 60,000 by default.
        public var trailsPerMinute: Int
        /// The envelopes a minute a project may send that carry sessions and no event (Sentry's session updates).
        ///
        /// 0 for no limit; 60,000 by default. The sessions an event's envelope carries ride with it, under the events'
        /// limit; those of an envelope whose event is refused count only within this rate.
        public var sessionsPerMinute: Int
        /// The bytes of uploaded chunks a project may keep before they are assembled.
        ///
        /// 2 GiB by default.
        public var uploadQuota: Int64
        /// How long an uploaded chunk no assemble used is kept, in milliseconds.
        ///
        /// A day by default.
        public var chunkLifetime: Int64
        /// The largest debug file assembled from chunks.
        ///
        /// 2 GiB by default.
        public var maximumDebugFile: Int64
        /// The free disk below which intake refuses before writing, in bytes.
        ///
        /// 0 for none; 256 MiB by default.
        public var minimumFreeDisk: Int64
        /// The most bytes the quarantine folder holds.
        ///
        /// Refused payloads past it are not copied; 256 MiB by default.
        public var quarantineLimit: Int64

        public init(
            eventsPerMinute: Int = 6_000, trailsPerMinute: Int = 60_000, uploadQuota: Int64 = 2 << 30,
            chunkLifetime: Int64 = 86_400_000, maximumDebugFile: Int64 = 2 << 30, minimumFreeDisk: Int64 = 256 << 20,
            quarantineLimit: Int64 = 256 << 20, sessionsPerMinute: Int = 60_000
        ) {
            self.eventsPerMinute = eventsPerMinute
            self.trailsPerMinute = trailsPerMinute
            self.sessionsPerMinute = sessionsPerMinute
            self.uploadQuota = uploadQuota
            self.chunkLifetime = chunkLifetime
            self.maximumDebugFile = maximumDebugFile
            self.minimumFreeDisk = minimumFreeDisk
            self.quarantineLimit = quarantineLimit
        }
    }

    /// Sentry's limits (SPEC section 14).
    public struct Limits: Sendable {
        /// One event item, or a `/store/` event, decompressed.
        public var eventItem: Int
        /// A compressed request body.
        public var compressedBody: Int
        /// A request body once decompressed (or sent plain).
        public var decompressedBody: Int

        public init(eventItem: Int = 1 << 20, compressedBody: Int = 20 << 20, decompressedBody: Int = 100 << 20) {
            self.eventItem = eventItem
            self.compressedBody = compressedBody
            self.decompressedBody = decompressedBody
        }
    }

    public init(
        host: String = "127.0.0.1", port: Int = 8000, projects: [Project] = [], publicURL: String? = nil,
        quarantineDirectory: String = IntakeDefaults.quarantineDirectory, backlog: Int = 4096,
        batchSize: Int = IntakeDefaults.batchSize, idleTimeout: Duration = .seconds(30),
        joinTolerance: Int64 = IntakeDefaults.joinTolerance, maximumTrailSteps: Int = IntakeDefaults.maximumTrailSteps,
        readToken: String? = nil, publicRead: Bool = false, limits: Limits = Limits(), trust: Trust = Trust(),
        forward: [String] = [], forwardGrouping: Bool = false,
        forwardHold: Duration = .seconds(30), trailWait: Duration = .seconds(7 * 86_400), maximumWaitingTrails: Int = 10_000,
        maximumWaitingTrailBytes: Int64 = 256 << 20
    ) {
        self.publicRead = publicRead
        self.trust = trust
        self.trailWait = trailWait
        self.maximumWaitingTrails = max(0, maximumWaitingTrails)
        self.maximumWaitingTrailBytes = max(0, maximumWaitingTrailBytes)
        self.forward = forward
        self.forwardGrouping = forwardGrouping
        self.forwardHold = forwardHold
        self.host = host
        self.port = port
        self.projects = projects
        self.publicURL = publicURL
        self.quarantineDirectory = quarantineDirectory
        self.backlog = max(1, backlog)
        self.batchSize = max(1, batchSize)
        self.idleTimeout = idleTimeout
        self.joinTolerance = joinTolerance
        self.maximumTrailSteps = max(1, maximumTrailSteps)
        self.readToken = readToken
        self.limits = limits
    }

    /// Whether the service can be reached only from this machine.
    public var listensOnLoopbackOnly: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// Reads `HOST:PORT`, `:PORT`, `PORT` or `[IPv6]:PORT`.
    /// - Throws: ``ServeOptionsError`` naming what is wrong.
    public static func listenAddress(_ text: String) throws(ServeOptionsError) -> (host: String, port: Int) {
        var host = "127.0.0.1"
        var portText = text
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = String(text[text.index(after: close)...].drop { $0 == ":" })
        } else if let colon = text.lastIndex(of: ":") {
            let name = text[..<colon]
            if !name.isEmpty { host = String(name) }
            portText = String(text[text.index(after: colon)...])
        }
        guard let port = Int(portText), (0...65535).contains(port) else {
            throw ServeOptionsError(
                .invalidOption,
                "--listen \(text) is not HOST:PORT with a port from 0 to 65535 (for example 127.0.0.1:8000, or 0.0.0.0:8000 for every address)"
            )
        }
        return (host, port)
    }

    /// Reads `--project ID=KEY`.
    /// - Throws: ``ServeOptionsError`` naming what is wrong.
    public static func project(_ text: String) throws(ServeOptionsError) -> Project {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let id = ProjectID(parts[0]), !parts[1].isEmpty,
            parts[1].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        else {
            throw ServeOptionsError(
                .invalidOption,
                "--project \(text) is not ID=KEY with a positive number and a key of letters and digits (for example --project 1=\(Project.newKey()))"
            )
        }
        return Project(id: id, name: "project \(id)", key: parts[1])
    }
}

/// A `serve` option that cannot be used, named with what to give instead.
public struct ServeOptionsError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    public struct Code: ErrorCode {
        public let name: String
        public init(name: String) { self.name = name }

        /// An option's value that cannot be used.
        public static let invalidOption = Code(name: "invalid-option")
    }

    public var code: Code
    public var message: String

    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - message: the option and value, and what to give instead.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}

extension ServeOptions {
    /// The upstream DSNs of `--forward-file` (one a line, `#` starting a comment) and of `$CRASHTRAIL_FORWARD`
    /// (separated by spaces, commas or new lines), which keep them out of `ps` (SPEC section 19).
    /// - Throws: ``ServeOptionsError`` for a file that cannot be read, or that users other than its owner may read.
    public static func upstreams(file: String?, environment: String?) throws(ServeOptionsError) -> [String] {
        var found: [String] = []
        if let file {
            var info = stat()
            guard stat(file, &info) == 0, let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ServeOptionsError(.invalidOption, "--forward-file \(file) cannot be read; give a file of DSNs, one a line")
            }
            guard info.st_mode & 0o077 == 0 else {
                throw ServeOptionsError(
                    .invalidOption,
                    "--forward-file \(file) can be read by other users (mode \(String(info.st_mode & 0o777, radix: 8))), and its DSNs hold keys; run chmod 600 \(file)"
                )
            }
            for line in text.split(whereSeparator: \.isNewline) {
                let dsn =
                    line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first?
                    .trimmingCharacters(in: .whitespaces) ?? ""
                if !dsn.isEmpty { found.append(dsn) }
            }
        }
        if let environment {
            found += environment.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
        }
        return found
    }
}
