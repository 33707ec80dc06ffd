import CrashtrailCore

/// The members of every object a decoding has opened, in one growing list: an object's keyed container owns a
/// range of it, so opening an object allocates nothing of its own.
///
/// Only plain values and pointers, so reading it costs no reference counting; its owner calls `deallocate()`.
struct MemberIndex {
    /// One `"key": value` of an object.
    struct Member {
        /// The key's UTF-8 bytes: in the document (between its quotes), or in `unescapedKeys` for a key written
        /// with escapes.
        var keyStart: Int
        var keyEnd: Int
        var unescaped: Bool
        var value: JSONPosition
    }

    private var members: UnsafeMutablePointer<Member>
    private(set) var count = 0
    private var capacity = 128
    /// The text of the keys written with escapes, one after another.
    private var unescapedKeys: UnsafeMutablePointer<UInt8>
    private var unescapedCount = 0
    private var unescapedCapacity = 0

    init() {
        members = .allocate(capacity: capacity)
        unescapedKeys = .allocate(capacity: 0)
    }

    func deallocate() {
        members.deallocate()
        unescapedKeys.deallocate()
    }

    /// Adds a member whose key is the document's bytes `keyStart..<keyEnd`, or `unescapedKey` when the key is
    /// written with escapes.
    @inline(__always)
    mutating func append(keyStart: Int, keyEnd: Int, unescapedKey: String?, value: JSONPosition) {
        if count == capacity {
            let grown = UnsafeMutablePointer<Member>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: members, count: count)
            members.deallocate()
            members = grown
            capacity *= 2
        }
        guard let unescapedKey else {
            members[count] = Member(keyStart: keyStart, keyEnd: keyEnd, unescaped: false, value: value)
            count += 1
            return
        }
        let utf8 = Array(unescapedKey.utf8)
        if unescapedCount + utf8.count > unescapedCapacity {
            unescapedCapacity = max(64, (unescapedCount + utf8.count) * 2)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: unescapedCapacity)
            grown.moveInitialize(from: unescapedKeys, count: unescapedCount)
            unescapedKeys.deallocate()
            unescapedKeys = grown
        }
        (unescapedKeys + unescapedCount).initialize(from: utf8, count: utf8.count)
        members[count] = Member(keyStart: unescapedCount, keyEnd: unescapedCount + utf8.count, unescaped: true, value: value)
        unescapedCount += utf8.count
        count += 1
    }

    /// The value of member `number`.
    @inline(__always)
    func value(_ number: Int) -> JSONPosition { members[number].value }

    /// The number of the first member in `range` whose key is `name` (the first one wins, as in Foundation),
    /// comparing bytes without making strings.
    @inline(__always)
    func number(named name: String, in range: Range<Int>, base: UnsafePointer<UInt8>) -> Int? {
        if let found = name.utf8.withContiguousStorageIfAvailable({ number(named: $0, in: range, base: base) }) { return found }
        // A bridged string without contiguous UTF-8 (not seen on Linux).
        let utf8 = Array(name.utf8)
        return utf8.withUnsafeBufferPointer { number(named: $0, in: range, base: base) }
    }

    @inline(__always)
    private func number(named utf8: UnsafeBufferPointer<UInt8>, in range: Range<Int>, base: UnsafePointer<UInt8>) -> Int? {
        let length = utf8.count
        for number in range {
            let member = members[number]
            guard member.keyEnd - member.keyStart == length else { continue }
            guard let wanted = utf8.baseAddress else { return number }  // The empty key.
            let key = (member.unescaped ? UnsafePointer(unescapedKeys) : base) + member.keyStart
            var index = 0
            while index < length, key[index] == wanted[index] { index += 1 }
            if index == length { return number }
        }
        return nil
    }

    /// The key text of a member.
    func key(_ number: Int, base: UnsafePointer<UInt8>) -> String {
        let member = members[number]
        let source = member.unescaped ? UnsafePointer(unescapedKeys) : base
        return String(decoding: UnsafeBufferPointer(start: source + member.keyStart, count: member.keyEnd - member.keyStart), as: UTF8.self)
    }
}
