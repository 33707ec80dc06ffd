public import CrashtrailCore

/// The first place a replayed state differs from the recorded one, named precisely:
/// `tab: replayed 2, recorded 0`, `stacks[2][1]: replayed {"item":{"id":"L-1"}}, recorded none`,
/// `conditions: replayed has signedIn, recorded lacks it`.
///
/// Fields are compared in the order of the state's JSON form as people read it: `tab`, `stacks`, `modals`,
/// `conditions`, `pending`.
public struct StateDifference: Hashable, Sendable, CustomStringConvertible {
    /// Where the states differ, as a path into the state (`tab`, `stacks[2][1]`, `modals[0]`, `conditions`).
    public var path: String
    /// What the replay has there, as people read it.
    public var replayed: String
    /// What the recording has there.
    public var recorded: String

    /// A difference at `path`.
    /// - Parameters:
    ///   - path: where the states differ.
    ///   - replayed: the replayed side.
    ///   - recorded: the recorded side.
    public init(path: String, replayed: String, recorded: String) {
        self.path = path
        self.replayed = replayed
        self.recorded = recorded
    }

    /// The sentence, such as `tab: replayed 2, recorded 0`.
    public var description: String {
        return "\(path): replayed \(replayed), recorded \(recorded)"
    }

    /// The first difference between two states, or nil when they are canonically equal.
    /// - Parameters:
    ///   - replayed: the state the replay reached.
    ///   - recorded: the state the app recorded.
    /// - Returns: the first difference, or nil.
    public static func first(replayed: NavigationState, recorded: NavigationState) -> StateDifference? {
        if replayed.tab != recorded.tab {
            return StateDifference(path: "tab", replayed: tabText(replayed.tab), recorded: tabText(recorded.tab))
        }
        if let difference = first(in: "stacks", replayed.stacks, recorded.stacks) { return difference }
        if let difference = first(in: "modals", replayed.modals, recorded.modals) { return difference }
        if replayed.conditions != recorded.conditions {
            let all = replayed.conditions.union(recorded.conditions).sorted(by: CanonicalJSON.codePointPrecedes)
            for name in all where replayed.conditions.contains(name) != recorded.conditions.contains(name) {
                return replayed.conditions.contains(name)
                    ? StateDifference(path: "conditions", replayed: "has \(name)", recorded: "lacks it")
                    : StateDifference(path: "conditions", replayed: "lacks \(name)", recorded: "has it")
            }
        }
        if replayed.pending != recorded.pending {
            return StateDifference(
                path: "pending", replayed: pendingText(replayed.pending), recorded: pendingText(recorded.pending))
        }
        return nil
    }

    private static func first(in field: String, _ replayed: [[Destination]], _ recorded: [[Destination]]) -> StateDifference? {
        for index in 0..<max(replayed.count, recorded.count) {
            let path = "\(field)[\(index)]"
            guard index < replayed.count, index < recorded.count else {
                return StateDifference(
                    path: path, replayed: stackText(replayed, index), recorded: stackText(recorded, index))
            }
            let left = replayed[index]
            let right = recorded[index]
            for position in 0..<max(left.count, right.count) {
                let leftDestination = position < left.count ? left[position] : nil
                let rightDestination = position < right.count ? right[position] : nil
                if leftDestination != rightDestination {
                    return StateDifference(
                        path: "\(path)[\(position)]", replayed: leftDestination?.canonicalJSON ?? "none",
                        recorded: rightDestination?.canonicalJSON ?? "none")
                }
            }
        }
        return nil
    }

    private static func stackText(_ stacks: [[Destination]], _ index: Int) -> String {
        guard index < stacks.count else { return "none" }
        return CanonicalJSON.string(of: .array(stacks[index].map(\.jsonValue)))
    }

    private static func tabText(_ tab: Int?) -> String {
        tab.map(String.init) ?? "none (no tab bar)"
    }

    private static func pendingText(_ pending: PendingDestination?) -> String {
        guard let pending else { return "none" }
        return CanonicalJSON.string(of: .object(["to": pending.destination.jsonValue, "mode": .string(pending.mode.rawValue)]))
    }
}
