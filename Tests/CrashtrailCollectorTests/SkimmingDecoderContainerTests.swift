import Foundation
import Testing

@testable import CrashtrailFormats
@testable import CrashtrailStore

/// Keyed, unkeyed and single-value containers behave as Foundation's `JSONDecoder` makes them behave: the same
/// values, and the same errors with the same coding paths.
@Suite("SkimmingDecoder containers")
struct SkimmingDecoderContainerTests {
    struct Inner: Decodable, Equatable {
        var name: String
        var count: Int?
    }

    struct Outer: Decodable, Equatable {
        var id: String
        var inner: Inner
        var list: [Inner]
        var optionalInner: Inner?
        var numbers: [Int?]?
        var flag: Bool?
    }

    @Test("Missing keys, null and absent optionals, nested containers and their error paths")
    func keyedShapes() {
        let inner = #"{"name":"a","count":1}"#
        let documents = [
            #"{"id":"x","inner":\#(inner),"list":[\#(inner),{"name":"b"}],"numbers":[1,null,3],"flag":true}"#,
            #"{"id":"x","inner":\#(inner),"list":[],"optionalInner":null,"numbers":null,"flag":null}"#,
            // A missing required key, at the top and nested (keyNotFound with the container's path).
            #"{"inner":\#(inner),"list":[]}"#, #"{"id":"x","inner":{"count":1},"list":[]}"#,
            #"{"id":"x","inner":\#(inner),"list":[\#(inner),{"count":2}]}"#,
            // Null where a value is required (valueNotFound), and wrong types (typeMismatch), at every depth.
            #"{"id":null,"inner":\#(inner),"list":[]}"#, #"{"id":"x","inner":null,"list":[]}"#,
            #"{"id":"x","inner":\#(inner),"list":[null]}"#, #"{"id":"x","inner":\#(inner),"list":[{"name":null}]}"#,
            #"{"id":1,"inner":\#(inner),"list":[]}"#, #"{"id":"x","inner":[],"list":[]}"#, #"{"id":"x","inner":\#(inner),"list":{}}"#,
            #"{"id":"x","inner":\#(inner),"list":[{"name":"a","count":"1"}]}"#,
            #"{"id":"x","inner":\#(inner),"list":[],"numbers":[1,"2"]}"#, #"{"id":"x","inner":\#(inner),"list":[],"flag":1}"#,
            #"{"id":"x","inner":\#(inner),"list":[],"optionalInner":{"name":true}}"#,
            // Not an object at all.
            "[]", "null", "\"x\"", "1", "true",
        ]
        for document in documents { EngineComparison.expectSame(Outer.self, document) }
    }

    @Test("Repeated keys: the first wins; keys written with escapes are found")
    func repeatedAndEscapedKeys() {
        EngineComparison.expectSame(Inner.self, #"{"name":"first","name":"second","count":1,"count":2}"#)
        #expect(
            EngineComparison.skimming(Inner.self, Array(#"{"name":"first","name":"second"}"#.utf8)) == .value(Inner(name: "first")))
        EngineComparison.expectSame(Inner.self, #"{"n\u0061me":"escaped","\u0063ount":3}"#)
        EngineComparison.expectSame(Inner.self, #"{"name\u0000":"nul","name":"plain"}"#)
        EngineComparison.expectSame(Inner.self, #"{"\"name\"":"quoted","name":"plain"}"#)
        EngineComparison.expectSame(Inner.self, #"{"":"empty key","name":"plain"}"#)
        // Keys differ in case: neither is the other.
        EngineComparison.expectSame(Inner.self, #"{"Name":"upper","name":"lower"}"#)
    }

    /// Lists what a keyed container sees.
    struct Keys: Decodable, Equatable {
        var keys: [String]
        var contains: [Bool]
        var nilForA: Bool?
        var missingNil: String

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            keys = container.allKeys.map(\.stringValue).sorted()
            contains = ["a", "b", "", "missing"].map { container.contains(Key(stringValue: $0)) }
            nilForA = try? container.decodeNil(forKey: Key(stringValue: "a"))
            do {
                _ = try container.decodeNil(forKey: Key(stringValue: "missing"))
                missingNil = "no error"
            } catch {
                missingNil = EngineComparison.ErrorSummary(error).kind
            }
        }
    }

    @Test("allKeys (each key once), contains and decodeNil")
    func keyQueries() {
        for document in [#"{"a":null,"b":1,"a":2,"":3}"#, #"{"a":1}"#, "{}", #"{"b":{"a":null}}"#] {
            EngineComparison.expectSame(Keys.self, document)
        }
    }

    /// Walks an array by hand: counts, failed decodes that stay put, nested containers and the end.
    struct Walk: Decodable, Equatable {
        var log: [String] = []

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            log.append("count \(container.count.map(String.init) ?? "nil") at end \(container.isAtEnd)")
            while !container.isAtEnd, log.count < 100 {
                let index = container.currentIndex
                if let int = try? container.decode(Int.self) {
                    log.append("\(index): int \(int)")
                } else if try container.decodeNil() {
                    log.append("\(index): nil")
                } else if let string = try? container.decode(String.self) {
                    log.append("\(index): string \(string)")
                } else if var nested = try? container.nestedUnkeyedContainer() {
                    log.append("\(index): array of \(nested.count ?? -1), first \((try? nested.decode(Int.self)).map(String.init) ?? "-")")
                } else if let nested = try? container.nestedContainer(keyedBy: Keys.Key.self) {
                    log.append("\(index): object \(nested.allKeys.map(\.stringValue).sorted())")
                } else if let double = try? container.decode(Double.self) {
                    log.append("\(index): double \(double)")
                } else if let bool = try? container.decode(Bool.self) {
                    log.append("\(index): bool \(bool)")
                } else {
                    log.append("\(index): stuck")
                    break
                }
            }
            do {
                _ = try container.decode(Int.self)
            } catch {
                log.append("past the end: \(EngineComparison.ErrorSummary(error))")
            }
            do {
                _ = try container.decodeNil()
            } catch {
                log.append("nil past the end: \(EngineComparison.ErrorSummary(error).kind)")
            }
        }
    }

    @Test("Unkeyed containers: a failed decode does not move on; nested containers; errors past the end")
    func unkeyedWalk() {
        for document in [#"[1,"two",null,[3,4],{"k":5},true,-0,1.5]"#, "[]", "[[]]", "[null]", #"[{"a":[1,[2]]},"x"]"#] {
            EngineComparison.expectSame(Walk.self, document)
        }
    }

    @Test("Arrays of optionals and optional arrays")
    func optionals() {
        for document in ["[1,null,3]", "[]", "[null]", #"[1,"x"]"#, "null", "[1.0,2e0]", "[1.5]"] {
            EngineComparison.expectSame([Int?].self, document)
            EngineComparison.expectSame([Int?]?.self, document)
            EngineComparison.expectSame([Int].self, document)
        }
        EngineComparison.expectSame([[String?]].self, #"[["a",null],[],[null]]"#)
    }

    struct Ranges: Decodable, Equatable {
        var int8: [Int8]?
        var int16: [Int16]?
        var int32: [Int32]?
        var uint: [UInt]?
        var uint16: [UInt16]?
        var uint32: [UInt32]?
        var float: [Float]?
    }

    @Test("Integer types check their range, reading through keyed and unkeyed containers alike")
    func integerRanges() {
        for (field, values) in [
            ("int8", ["-128", "127", "128", "-129", "1.0", "1e2", "1e3"]), ("int16", ["32767", "32768", "-32769"]),
            ("int32", ["2147483647", "2147483648", "-2147483648"]), ("uint", ["0", "-0", "-1", "18446744073709551615"]),
            ("uint16", ["65535", "65536"]), ("uint32", ["4294967295", "4294967296"]), ("float", ["3.4028235e38", "3.5e38", "1e-50"]),
        ] {
            for value in values { EngineComparison.expectSame(Ranges.self, #"{"\#(field)":[\#(value)]}"#) }
        }
    }

    /// Uses `superDecoder` of keyed and unkeyed containers.
    struct Supers: Decodable, Equatable {
        var values: [String] = []

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.Key.self)
            for name in ["a", "super", "missing"] {
                let decoder =
                    name == "super" ? try container.superDecoder() : try container.superDecoder(forKey: Keys.Key(stringValue: name))
                let single = try decoder.singleValueContainer()
                let path = EngineComparison.ErrorSummary.path(decoder.codingPath)
                values.append("\(name) at \(path): \(single.decodeNil() ? "nil" : (try? single.decode(Int.self)).map(String.init) ?? "?")")
            }
            var list = try container.nestedUnkeyedContainer(forKey: Keys.Key(stringValue: "list"))
            let element = try list.superDecoder()
            values.append("element at \(EngineComparison.ErrorSummary.path(element.codingPath)), next index \(list.currentIndex)")
            values.append("element is \(try Inner(from: element).name)")
        }
    }

    @Test("superDecoder of a key, of super, of a missing key (null) and of an element")
    func superDecoders() {
        EngineComparison.expectSame(Supers.self, #"{"a":1,"super":2,"list":[{"name":"n"},3]}"#)
        EngineComparison.expectSame(Supers.self, #"{"a":null,"list":[{"name":"n"}]}"#)
    }

    /// Reports the coding path a nested `init(from:)` sees.
    struct Path: Decodable, Equatable {
        var path: String
        init(from decoder: any Decoder) throws { path = EngineComparison.ErrorSummary.path(decoder.codingPath) }
    }

    struct Paths: Decodable, Equatable {
        var a: Path
        var b: [[Path]]
        var c: [String: Path]
    }

    @Test("Nested decoders see the coding path JSONDecoder gives them")
    func codingPaths() {
        EngineComparison.expectSame(Paths.self, #"{"a":1,"b":[[1,2],[3]],"c":{"x":1,"y":2}}"#)
    }

    @Test("Single values at the top level, and scalars of every type")
    func singleValues() {
        EngineComparison.expectSame(String.self, #""text""#)
        EngineComparison.expectSame(Int.self, " 42 ")
        EngineComparison.expectSame(Double.self, "-1.5e3")
        EngineComparison.expectSame(Bool.self, "false")
        EngineComparison.expectSame(String?.self, "null")
        EngineComparison.expectSame(Int.self, "null")
        EngineComparison.expectSame(Bool.self, "null")
        EngineComparison.expectSame(String.self, "{}")
        EngineComparison.expectSame([String: Int].self, #"{"a":1,"b":2,"a":3}"#)
    }
}
