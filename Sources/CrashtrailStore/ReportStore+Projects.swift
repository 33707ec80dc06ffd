import CrashtrailReports
import Foundation

/// The projects a store keeps for `crashtrail serve` (`project` table, migration `v10: projects`; PostgreSQL
/// `v6: projects`): each project's ID, name and key, so a service that restarts keeps its DSNs.
extension ReportStore {
    /// Every project, by ID, the revoked ones too.
    /// - Throws: `StoreError` (`database`).
    public func projects() throws(StoreError) -> [Project] {
        try read { db in
            try db.rows("SELECT id, name, key, revoked, eventsPerMinute FROM project ORDER BY id", []).map { row throws in
                guard let id = row.project("id") else {
                    throw StoreError(.database, "a stored project has the number \(row["id"]); a project's number is 1 or more")
                }
                return Project(
                    id: id, name: try row.requiredString("name"), key: try row.requiredString("key"),
                    revoked: (row.int("revoked") ?? 0) != 0, eventsPerMinute: row.int("eventsPerMinute"))
            }
        }
    }

    /// Adds a project with the next free ID and a new key.
    /// - Parameters:
    ///   - name: its name, unique in the store.
    ///   - key: its key; a new random one when nil.
    /// - Returns: the project added.
    /// - Throws: `StoreError`: `database`, or `ambiguous` when a project of that name exists.
    public func addProject(name: String, key: String? = nil) throws(StoreError) -> Project {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw StoreError(.database, "a project needs a name, such as crashtrail project add ios-app") }
        if try projects().contains(where: { $0.name == trimmed }) {
            throw StoreError(
                .ambiguous, "the store already has a project named \(trimmed); crashtrail project list shows its DSN")
        }
        let key = key ?? Project.newKey()
        return try write { db in
            let number = (try db.value("SELECT COALESCE(MAX(id), 0) + 1 FROM project")?.integer).map(Int.init) ?? 1
            let next = ProjectID(rawValue: number) ?? .first
            try db.execute(
                "INSERT INTO project (id, name, key, revoked) VALUES (?, ?, ?, 0)", [StoreValue(next), .text(trimmed), .text(key)])
            return Project(id: next, name: trimmed, key: key)
        }
    }

    /// The project named by its ID or its name, revoked ones too.
    /// - Throws: `StoreError`: `notFound` naming the projects there are, or `database`.
    package func project(idOrName: String) throws(StoreError) -> Project {
        let all = try projects()
        guard let project = Project.named(idOrName, in: all) else {
            let known = all.map { "\($0.id) (\($0.name))" }.joined(separator: ", ")
            throw StoreError(
                .notFound, "no project has the ID or name \(idOrName); the store has \(known.isEmpty ? "no projects" : known)")
        }
        return project
    }

    /// The project a command writes reports, trails or debug files to (SPEC section 19): the one named by its ID or
    /// name; else the store's only project, or the first project when the store has none yet.
    /// - Parameter name: the project's ID or name, from `--project`; nil when not given.
    /// - Returns: the project's ID.
    /// - Throws: `StoreError`: `notFound` naming the projects there are, `ambiguous` when none is named and the store
    ///   has several, or `database`.
    public func writingProject(named name: String?) throws(StoreError) -> ProjectID {
        if let name { return try project(idOrName: name).id }
        let all = try projects()
        guard all.count > 1 else { return all.first?.id ?? .first }
        let known = all.map { "\($0.id) (\($0.name))" }.joined(separator: ", ")
        throw StoreError(
            .ambiguous,
            "the store has several projects, \(known), and duplicates and joins are decided within one; name it with --project, for example --project \(all[0].name)"
        )
    }

    /// Revokes a project, named by its ID or its name: its key is refused from now on.
    /// - Returns: the project, revoked.
    /// - Throws: `StoreError`: `notFound` naming the projects there are, or `database`.
    public func revokeProject(_ idOrName: String) throws(StoreError) -> Project {
        var project = try project(idOrName: idOrName)
        try write { db in try db.execute("UPDATE project SET revoked = 1 WHERE id = ?", [StoreValue(project.id)]) }
        project.revoked = true
        return project
    }

    /// Sets a project's rate limit, named by its ID or its name: the most events a minute a service takes for it.
    /// - Parameters:
    ///   - idOrName: the project's ID or name.
    ///   - eventsPerMinute: the limit; nil for the service's default.
    /// - Returns: the project, with its new limit.
    /// - Throws: `StoreError`: `notFound` naming the projects there are, or `database`.
    public func setProjectLimit(_ idOrName: String, eventsPerMinute: Int?) throws(StoreError) -> Project {
        var project = try project(idOrName: idOrName)
        try write { db in
            try db.execute(
                "UPDATE project SET eventsPerMinute = ? WHERE id = ?",
                [eventsPerMinute.map { .integer(Int64($0)) } ?? .null, StoreValue(project.id)])
        }
        project.eventsPerMinute = eventsPerMinute
        return project
    }

    /// The projects a service accepts: those not revoked, and a project named `default` with a new key when the
    /// store has none yet.
    /// - Throws: `StoreError` (`database`).
    package func activeProjectsCreatingDefault() throws(StoreError) -> [Project] {
        let all = try projects()
        guard all.isEmpty else { return all.filter { !$0.revoked } }
        do {
            return [try addProject(name: "default")]
        } catch {
            // Another service starting on the same store made it first: use theirs.
            let made = try projects()
            guard !made.isEmpty else { throw error }
            return made.filter { !$0.revoked }
        }
    }
}
