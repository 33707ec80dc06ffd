import CrashtrailCore
import CrashtrailTestSupport
import Foundation

/// The sample manifests for unit tests, read from `Samples/` so the tests never depend on the shared suite.
enum TestManifests {
    static func piratebay() throws -> Manifest {
        try load("Samples/PirateBay/Sources/PirateBay/piratebay.yml")
    }

    static func lighthouse() throws -> Manifest {
        try load("Samples/trails-golden/lighthouse.yml")
    }

    private static func load(_ path: String) throws -> Manifest {
        let text = try String(contentsOf: GoldenSamples.packageRoot.appendingPathComponent(path), encoding: .utf8)
        return try Manifest(yaml: text, source: path)
    }

    /// A destination from its name and payload.
    static func d(_ name: String, _ payload: [String: JSONValue] = [:]) -> Destination {
        Destination(name, payload)
    }

    /// A PirateBay state with the given stacks (tab roots are added), modals, conditions and pending.
    static func tabs(
        _ tab: Int = 0, _ above: [[Destination]] = [[], [], []], modals: [[Destination]] = [], conditions: Set<String> = [],
        pending: PendingDestination? = nil
    ) -> NavigationState {
        let roots = ["home", "marketplace", "myProfile"]
        return NavigationState(
            tab: tab, stacks: roots.enumerated().map { [d($1)] + (above.count > $0 ? above[$0] : []) }, modals: modals,
            conditions: conditions, pending: pending)
    }
}
