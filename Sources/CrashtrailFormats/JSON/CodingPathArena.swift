import CrashtrailCore

/// The coding paths of one decoding, as a tree of nodes numbered in the order they were made.
///
/// A node stores where its key came from rather than the key: an object member (its key text is in the document), an array
/// index, or (rarely) an explicit key. Going one level deeper appends one plain value; the keys and the array a
/// `codingPath` needs are made only when an error or a caller asks for them.
///
/// A member's key comes back as a `SkimmedCodingKey` with the same `stringValue` and `intValue` as the key the
/// type asked with (Foundation's paths hold the type's own keys).
struct CodingPathArena {
    /// The node number of the empty path.
    static let root = -1

    private struct Node {
        enum Step {
            /// The member with this number in the `MemberIndex`, asked for with a key of this `intValue`.
            case member(Int, intValue: Int?)
            case index(Int)
            /// The key with this number in `explicitKeys`.
            case explicit(Int)
        }

        var parent: Int
        var step: Step
    }

    private var nodes: [Node] = []
    private var explicitKeys: [any CodingKey] = []

    init() {
        nodes.reserveCapacity(128)
    }

    /// The node for the member `number` (asked for with `key`) under `parent`.
    @inline(__always)
    mutating func member(_ number: Int, key: some CodingKey, under parent: Int) -> Int {
        nodes.append(Node(parent: parent, step: .member(number, intValue: key.intValue)))
        return nodes.count - 1
    }

    /// The node for array element `index` under `parent`.
    @inline(__always)
    mutating func index(_ index: Int, under parent: Int) -> Int {
        nodes.append(Node(parent: parent, step: .index(index)))
        return nodes.count - 1
    }

    /// The node for `key` under `parent`, kept as it is.
    mutating func explicit(_ key: any CodingKey, under parent: Int) -> Int {
        explicitKeys.append(key)
        nodes.append(Node(parent: parent, step: .explicit(explicitKeys.count - 1)))
        return nodes.count - 1
    }

    /// The keys from the root down to `node`, then `key` when given; member keys are read from `members`.
    func path(to node: Int, then key: (any CodingKey)? = nil, members: MemberIndex, base: UnsafePointer<UInt8>) -> [any CodingKey] {
        var path: [any CodingKey] = []
        var next = node
        while next != Self.root {
            let current = nodes[next]
            switch current.step {
            case .member(let number, let intValue): path.append(SkimmedCodingKey.named(members.key(number, base: base), intValue))
            case .index(let index): path.append(SkimmedCodingKey.index(index))
            case .explicit(let number): path.append(explicitKeys[number])
            }
            next = current.parent
        }
        path.reverse()
        if let key { path.append(key) }
        return path
    }
}

/// The keys the decoder makes itself: an object member's key (as the type's key had it), an array index
/// (named `Index 3`, as Foundation names it) and `super`.
enum SkimmedCodingKey: CodingKey {
    case named(String, Int?)
    case index(Int)
    case `super`

    init?(stringValue: String) { self = stringValue == "super" ? .super : .named(stringValue, nil) }

    init?(intValue: Int) { self = .index(intValue) }

    var stringValue: String {
        switch self {
        case .named(let name, _): name
        case .index(let index): "Index \(index)"
        case .super: "super"
        }
    }

    var intValue: Int? {
        switch self {
        case .named(_, let intValue): intValue
        case .index(let index): index
        case .super: nil
        }
    }
}

extension CodingPathArena {
    /// A coding path as `threads[0].frames[3].symbol`.
    static func dotted(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
    }
}
