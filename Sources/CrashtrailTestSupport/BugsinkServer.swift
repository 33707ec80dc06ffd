import Foundation

/// A throwaway Bugsink (`pip install bugsink`): a real tracker that speaks Sentry's protocol, started on loopback by
/// `Tools/Bugsink/bugsink_harness.py` with its own SQLite databases in a temporary folder, for the forwarding tests.
public final class BugsinkServer: @unchecked Sendable {
    /// What the harness printed once it was up.
    public struct Info: Decodable, Sendable {
        public var dsn: String
        public var projectID: Int
        public var baseURL: String
        public var databasePath: String
        public var folder: String
        /// A logged-in session, for a headless browser's cookie.
        public var sessionKey: String
        public var sessionCookieName: String

        enum CodingKeys: String, CodingKey {
            case dsn
            case projectID = "project_id"
            case baseURL = "base_url"
            case databasePath = "db_path"
            case folder = "tmp"
            case sessionKey = "session_key"
            case sessionCookieName = "session_cookie_name"
        }
    }

    public let info: Info
    private let process: Process
    private let output: CapturedOutput

    /// Whether `python3` can import `bugsink` (`.ci/run` installs it).
    public static let isAvailable: Bool = {
        guard let python = CommandRunner.which("python3"), let result = try? python.run(["-c", "import bugsink"]) else { return false }
        return result.status == 0
    }()

    /// Starts Bugsink on `port` (a free one when 0), on the databases in `folder` when given (they are kept: a Bugsink
    /// stopped and started again), else in a new temporary folder removed when it stops.
    /// - Throws: ``ServeProcessError`` when it does not come up within `timeout` seconds, with what it printed.
    public init(port: Int = 0, folder: String? = nil, timeout: Double = 90) throws {
        process = Process()
        process.executableURL = CommandRunner.which("python3")?.executable ?? URL(fileURLWithPath: "/usr/bin/python3")
        var arguments = [PackageRoot.url.appendingPathComponent("Tools/Bugsink/bugsink_harness.py").path]
        if port > 0 { arguments += ["--port", String(port)] }
        if let folder { arguments += ["--tmp", folder] }
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        output = CapturedOutput(process)
        try process.run()
        output.start()
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = output.stdout.split(separator: "\n").first(where: { $0.hasPrefix("{") }),
                let info = try? JSONDecoder().decode(Info.self, from: Data(line.utf8))
            {
                self.info = info
                return
            }
            if !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        output.wait()
        throw ServeProcessError(description: "Bugsink did not start: stdout \(output.stdout), stderr \(output.stderr)")
    }

    /// The port it listens on.
    public var port: Int { URLComponents(string: info.baseURL)?.port ?? 0 }

    /// Stops it (SIGTERM: gunicorn finishes what is in flight) and waits.
    public func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        process.waitUntilExit()
        output.wait()
    }

    /// Every stored event's ID (32 hex digits) and JSON, read from its database with `python3`'s sqlite3 (the
    /// database is Bugsink's; nothing here writes to it).
    public func events() throws -> [(id: String, data: [String: Any])] {
        let python = try CommandRunner.which("python3").orThrow("python3 is not on the PATH")
        let script = """
            import json, sqlite3, sys
            con = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True, timeout=30)
            rows = con.execute("SELECT event_id, data FROM events_event").fetchall()
            print(json.dumps([[str(r[0]).replace("-", ""), json.loads(r[1]) if r[1] else None] for r in rows]))
            """
        let result = try python.run(["-c", script, info.databasePath])
        guard result.status == 0, let rows = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[Any]] else {
            throw ServeProcessError(description: "reading Bugsink's events failed: \(result.stderr)")
        }
        return rows.compactMap { row in
            guard row.count == 2, let id = row[0] as? String else { return nil }
            return (id, row[1] as? [String: Any] ?? [:])
        }
    }
}

extension Optional {
    fileprivate func orThrow(_ message: String) throws -> Wrapped {
        guard let self else { throw ServeProcessError(description: message) }
        return self
    }
}
