import CrashtrailCore
import CrashtrailStore
import Foundation

/// Where a PostgreSQL store is: `postgres://USER@HOST:PORT/DB` (or `postgresql://`), with optional `sslmode` and
/// `pool` query items.
///
/// The password comes, as `psql` takes it, from the URL, else `PGPASSWORD`, else the password file
/// (`PGPASSFILE`, else `~/.pgpass`); it is never part of ``description``.
package struct PostgresLocation: Hashable, Sendable, CustomStringConvertible {
    package var user: String
    package var host: String
    package var port: Int
    package var database: String
    /// `disable`, `prefer` (the default, as libpq), `require` or `verify-full`.
    package var sslMode: SSLMode
    /// Connections this process keeps open at most.
    package var poolSize: Int
    /// The password, when one was found; never printed.
    var password: String?

    package enum SSLMode: String, Hashable, Sendable, CaseIterable {
        case disable, prefer, require
        case verifyFull = "verify-full"
    }

    /// Whether `text` names a PostgreSQL store rather than an SQLite file.
    package static func isPostgresURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Reads a `postgres://` URL.
    /// - Parameters:
    ///   - text: the URL.
    ///   - environment: where `PGUSER`, `PGPASSWORD`, `PGPASSFILE`, `HOME` and `USER` are read.
    /// - Throws: `StoreError` (`cannot-open`) saying what is wrong with the URL.
    package init(_ text: String, environment: [String: String] = ProcessEnvironment.current()) throws(StoreError) {
        func refuse(_ why: String) -> StoreError {
            StoreError(
                .cannotOpen,
                "the store URL \(Self.withoutPassword(text)) \(why); write it as postgres://USER@HOST:PORT/DATABASE (for example postgres://crashtrail@localhost:5432/crashes)"
            )
        }
        guard Self.isPostgresURL(text), let components = URLComponents(string: text) else { throw refuse("is not a postgres:// URL") }
        guard let host = components.host, !host.isEmpty else { throw refuse("names no host") }
        let user = components.user.flatMap { $0.removingPercentEncoding } ?? environment["PGUSER"] ?? environment["USER"] ?? "postgres"
        var database = components.path
        if database.hasPrefix("/") { database.removeFirst() }
        database = database.removingPercentEncoding ?? database
        if database.isEmpty { database = user }
        guard !database.contains("/") else { throw refuse("has a path with more than a database name") }
        self.user = user
        self.host = host
        self.port = components.port ?? 5432
        self.database = database
        self.sslMode = .prefer
        self.poolSize = 4
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let value = item.value, let mode = SSLMode(rawValue: value) else {
                    throw refuse("has sslmode=\(item.value ?? ""); use one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                sslMode = mode
            case "pool":
                guard let value = item.value, let size = Int(value), (1...64).contains(size) else {
                    throw refuse("has pool=\(item.value ?? ""); give a number of connections from 1 to 64")
                }
                poolSize = size
            default:
                throw refuse("has the option \(item.name), which crashtrail does not know (it knows sslmode and pool)")
            }
        }
        if let password = components.password {
            self.password = password.removingPercentEncoding ?? password
        } else if let password = environment["PGPASSWORD"] {
            self.password = password
        } else {
            let file = environment["PGPASSFILE"] ?? environment["HOME"].map { $0 + "/.pgpass" }
            self.password = file.flatMap { PasswordFile(path: $0)?.password(host: host, port: port, database: database, user: user) }
        }
    }

    /// The URL without a password: what messages and listings show.
    package var description: String {
        "postgres://\(user)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)"
    }

    /// Whether a password was found for this location (from the URL, `PGPASSWORD` or the password file).
    package var hasPassword: Bool { password != nil }

    /// `text` with any password in it replaced, for messages about a URL that did not read.
    static func withoutPassword(_ text: String) -> String {
        guard let components = URLComponents(string: text), components.password != nil else { return text }
        var safe = components
        safe.password = "****"
        return safe.string ?? "the URL given"
    }
}

/// A `.pgpass` file: lines of `host:port:database:user:password`, each field `*` for any, `\:` and `\\` escaped.
///
/// As `psql` does, a file that others can read is not used.
struct PasswordFile {
    let lines: [[String]]

    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & 0o077 == 0, let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            return nil
        }
        lines = text.split(whereSeparator: \.isNewline).compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = Self.fields(of: String(line))
            return fields.count == 5 ? fields : nil
        }
    }

    static func fields(of line: String) -> [String] {
        var fields: [String] = []
        var current = ""
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }

    /// The password of the first line that matches, as `psql` chooses it.
    func password(host: String, port: Int, database: String, user: String) -> String? {
        let wanted = [host, String(port), database, user]
        return lines.first { fields in zip(fields, wanted).allSatisfy { $0 == "*" || $0 == $1 } }?[4]
    }
}
