import CrashtrailServer

/// What `crashtrail serve` prints once it listens.
enum ServeText {
    /// The address, each project's DSN and how reads are opened; never a token, which reads take unless public.
    static func started(_ started: CollectorServer.Started) -> String {
        var lines = ["crashtrail serve is listening on \(started.host):\(started.port)"]
        for (project, dsn) in started.dsns { lines.append("DSN of project \(project.id) (\(project.name)): \(dsn)") }
        lines.append(
            started.publicRead
                ? "Reads (pages, /api/0/, /metrics) are open to anyone (--public-read)"
                : "Reads (pages, /api/0/, /metrics) take a token with the read scope: crashtrail project token add PROJECT --scope read"
        )
        return lines.joined(separator: "\n")
    }
}
