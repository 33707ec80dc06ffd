import CrashtrailCore
import CrashtrailReports

/// The screens a Sentry event's or SentryCrash report's breadcrumbs saw (SPEC section 15): `ui.lifecycle` breadcrumbs
/// with `data.screen` (and `data.beingPresented`, `"true"` or `true`), and `navigation` breadcrumbs with `data.to`.
///
/// Breadcrumbs come as a list or as `{"values": […]}`; a breadcrumb of another kind, or one whose screen is not a
/// string, is skipped, as is any breadcrumb that is not an object.
///
/// They are read only when the parse asks for them (``ParseContext/readsBreadcrumbs``, through the decoder's
/// `userInfo`): ingest asks when some manifest names screens, so breadcrumbs cost nothing until a team uses them.
struct SentryBreadcrumbs: Decodable, Sendable {
    struct Crumb: Decodable {
        struct Data: Decodable {
            var screen: LooseScalar?
            var beingPresented: LooseScalar?
            var to: LooseScalar?
        }
        var type: String?
        var category: String?
        var timestamp: LooseScalar?
        var data: Lenient<Data>?
    }

    /// The breadcrumbs that name a screen, oldest first as the reporter lists them.
    var sightings: [ScreenSighting]

    private enum CodingKeys: String, CodingKey { case values }

    init(from decoder: any Decoder) throws {
        guard decoder.readsBreadcrumbs else {
            sightings = []
            return
        }
        let crumbs: [Lenient<Crumb>]
        if let container = try? decoder.container(keyedBy: CodingKeys.self) {
            crumbs = (try? container.decodeIfPresent([Lenient<Crumb>].self, forKey: .values)) ?? []
        } else {
            crumbs = (try? [Lenient<Crumb>](from: decoder)) ?? []
        }
        sightings = crumbs.compactMap { $0.value.flatMap(Self.sighting) }
    }

    /// The screen a breadcrumb names, or nil.
    static func sighting(_ crumb: Crumb) -> ScreenSighting? {
        let data = crumb.data?.value
        let name: String?
        var presented = false
        if crumb.category == "ui.lifecycle" {
            name = data?.screen?.string
            presented = data?.beingPresented?.string == "true"
        } else if crumb.type == "navigation" {
            name = data?.to?.string
        } else {
            return nil
        }
        guard let name, !name.isEmpty else { return nil }
        let time = crumb.timestamp.flatMap { scalar in
            scalar.number.flatMap(Timestamp.milliseconds(epoch:)) ?? scalar.string.flatMap(Timestamp.milliseconds(parsing:))
        }
        return ScreenSighting(screen: name, time: time, presented: presented)
    }
}
