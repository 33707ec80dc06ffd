/// A manifest's deep-link templates arranged for matching a URL, built once with the manifest.
///
/// A template can only match a URL with as many segments as it has and, when its first segment is literal, the
/// same first segment (the host). For each segment count and first segment the index keeps just the templates
/// that pass those two checks, in routing priority: more literal parts first, then manifest order. A lookup
/// tries them in that order, so it returns what trying every template in routing priority would return, without
/// looking at templates that cannot match.
///
/// A class, so a manifest copied into every engine shares one index.
final class RouteIndex: Sendable {
    /// A destination's name and template; a class, so trying one copies no strings or arrays.
    final class Route: Sendable {
        let name: String
        let template: RouteTemplate

        init(name: String, template: RouteTemplate) {
            self.name = name
            self.template = template
        }
    }

    /// The templates with one segment count.
    struct Bucket: Sendable {
        /// By first segment: the templates whose first segment is that literal, merged in priority order with
        /// those whose first segment is a placeholder (`app:///{id}`), which match any first segment.
        var byFirstSegment: [String: [Route]] = [:]
        /// The templates whose first segment is a placeholder, for a URL whose first segment no template names;
        /// for the segment count 0, every template without segments.
        var others: [Route] = []
    }

    /// Buckets by segment count; a URL with more segments than any template matches nothing.
    private let buckets: [Bucket]

    init(destinations: [Manifest.DestinationSpec]) {
        let order = destinations.indices
            .filter { destinations[$0].route != nil }
            .sorted { lhs, rhs in
                let left = destinations[lhs].route?.literalCount ?? 0
                let right = destinations[rhs].route?.literalCount ?? 0
                return left != right ? left > right : lhs < rhs
            }
        let routes = order.compactMap { index in
            destinations[index].route.map { Route(name: destinations[index].name, template: $0) }
        }
        let maxCount = routes.map(\.template.segments.count).max() ?? -1
        var buckets = [Bucket](repeating: Bucket(), count: maxCount + 1)
        // The literal first segments of each count, so a placeholder-first template joins every one of them.
        for route in routes {
            if case .literal(let first) = route.template.segments.first {
                buckets[route.template.segments.count].byFirstSegment[first, default: []] = []
            }
        }
        for route in routes {
            let count = route.template.segments.count
            switch route.template.segments.first {
            case .literal(let first):
                buckets[count].byFirstSegment[first, default: []].append(route)
            case .placeholder:
                buckets[count].others.append(route)
                for key in buckets[count].byFirstSegment.keys { buckets[count].byFirstSegment[key, default: []].append(route) }
            case nil:
                buckets[count].others.append(route)
            }
        }
        self.buckets = buckets
    }

    /// The destination `url` names, or nil when no template matches it.
    func destination(for url: ParsedURL) -> Destination? {
        let count = url.segments.count
        guard count < buckets.count else { return nil }
        let candidates: [Route]
        if let first = url.segments.first, let named = buckets[count].byFirstSegment[first] {
            candidates = named
        } else {
            candidates = buckets[count].others
        }
        for route in candidates {
            if let payload = route.template.match(url) { return Destination(route.name, payload) }
        }
        return nil
    }
}
