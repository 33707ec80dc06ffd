import ArgumentParser
import CrashtrailCore
import CrashtrailService
import Foundation

/// The `forward` command: stored reports sent, enriched with their trails, to the tracker a team uses (SPEC section 17).
struct ForwardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forward",
        abstract: "Send stored reports, enriched with their trails, to a Sentry-compatible tracker (Sentry, Bugsink, GlitchTip).",
        discussion: """
            Each report goes once to each upstream: as a Sentry event (other formats converted), with the trail's \
            steps as navigation breadcrumbs, contexts.crashtrail (screens at the crash, shortest links) and the tags \
            crashtrail.screen and crashtrail.group. What is not delivered waits in the store's outbox for the next \
            run or for serve --forward to the same DSN; what can never succeed is set aside with its reason. \
            docs/FORWARD.md shows how to put crashtrail in front of a tracker. Examples:

              crashtrail forward --to https://KEY@sentry.example.com/42
              crashtrail forward --to https://KEY@sentry.example.com/42 --app com.example.piratebay --since 2026-11-01
              crashtrail forward --status
            """
    )

    @Option(name: .long, help: ArgumentHelp("The upstream project's DSN: http(s)://KEY@HOST[:PORT]/PROJECT.", valueName: "dsn"))
    var to: String?

    @Option(name: .long, help: ArgumentHelp("Only the reports of this crash group (an ID or a unique prefix).", valueName: "group"))
    var group: String?

    @OptionGroup var filterOptions: FilterOptions

    @Flag(name: .long, help: "Send crashtrail's signature as the events' fingerprint, so the upstream groups as crashtrail does.")
    var grouping = false

    @Option(name: .long, help: "Seconds to keep sending (retries included) before stopping; what is left waits for the next run.")
    var wait = 300.0

    @Flag(name: .long, help: "Print each upstream's outbox (delivered, waiting, retrying, set aside by reason) and send nothing.")
    var status = false

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var quietOptions: QuietOptions

    func validate() throws {
        if !status, to == nil { throw ValidationError("give the upstream with --to DSN, or ask for --status") }
        if status, to != nil { throw ValidationError("--status sends nothing: give it without --to") }
        if wait < 0 { throw ValidationError("--wait takes a number of seconds, 0 or more") }
    }

    func run() async throws {
        let service = try reportingFailure { try TriageService(location: storeOptions.location, creating: false) }
        if status {
            let statuses = try reportingFailure { try service.forwardingStatus() }
            print(
                output.isJSON ? CanonicalJSON.string(of: ForwardText.json(statuses)) : ForwardText.table(statuses, now: service.time.now()))
            return
        }
        var filter = filterOptions.filter
        if let group {
            filter.signature = try reportingFailure { try service.store.group(matchingPrefix: group).signature }
        }
        let progress = ProgressLine(quiet: quietOptions.quiet || output.isJSON)
        let summary: TriageService.ForwardSummary
        do {
            summary = try await service.forward(to: to ?? "", filter: filter, grouping: grouping, wait: wait) { totals in
                progress.show("Forwarding: \(totals.delivered) delivered, \(totals.retried) retried, \(totals.setAside) set aside")
            }
        } catch {
            progress.finish()
            return try reportingFailure { throw error }
        }
        progress.finish()
        if output.isJSON {
            print(CanonicalJSON.string(of: ForwardText.json(summary)))
        } else if !quietOptions.quiet {
            print(ForwardText.summary(summary))
        }
        if summary.waiting > 0 || summary.setAside > 0 { throw ExitCode.failure }
    }
}
