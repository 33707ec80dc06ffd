import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// SPEC section 18: the payload types apps use (strings, integers, booleans, `Double`, `Date`, `UUID`, `URL`, enums
/// with raw values, nested `Codable` structs) turn into destinations a trail carries and back to the same value, and
/// what a trail cannot carry is refused naming the coding path.
@Suite("Destination payloads")
struct DestinationPayloadTests {
    /// An app's destination enum with one case per payload type.
    enum AppDestination: Codable, Hashable, Sendable {
        case home
        case item(id: String)
        case page(Int)
        case filter(inStock: Bool)
        case offer(price: Double)
        case ratio(Float)
        case event(at: Date)
        case user(UUID)
        case link(url: URL)
        case sorted(by: Sort)
        case order(id: OrderID, total: Money, note: String?)
        case amount(Decimal)
        case serial(UInt64)
        case tags([String], weights: [Double?])
    }

    enum Sort: String, Codable, Hashable, Sendable {
        case price
        case newest
    }

    struct OrderID: Codable, Hashable, Sendable {
        var rawValue: String
    }

    struct Money: Codable, Hashable, Sendable {
        var amount: Double
        var currency: String
    }

    /// Every case, with the canonical JSON it must give: Double as its shortest text, Date as RFC 3339 UTC with
    /// milliseconds only when there are some, the rest as synthesized `Codable` writes them.
    static let cases: [(AppDestination, String)] = [
        (.home, #"{"home":{}}"#),
        (.item(id: "L-42"), #"{"item":{"id":"L-42"}}"#),
        (.page(-3), #"{"page":{"_0":-3}}"#),
        (.filter(inStock: true), #"{"filter":{"inStock":true}}"#),
        (.offer(price: 2.5), #"{"offer":{"price":"2.5"}}"#),
        (.offer(price: 0.1), #"{"offer":{"price":"0.1"}}"#),
        (.offer(price: 1e-05), #"{"offer":{"price":"1e-05"}}"#),
        (.offer(price: 3), #"{"offer":{"price":"3.0"}}"#),
        (.ratio(0.1), #"{"ratio":{"_0":"0.1"}}"#),
        (.event(at: Date(timeIntervalSince1970: 1_793_630_705)), #"{"event":{"at":"2026-11-02T14:45:05Z"}}"#),
        (.event(at: Date(timeIntervalSinceReferenceDate: 815_323_505.25)), #"{"event":{"at":"2026-11-02T14:45:05.250Z"}}"#),
        (.event(at: Date(timeIntervalSinceReferenceDate: -978_307_200.001)), #"{"event":{"at":"1969-12-31T23:59:59.999Z"}}"#),
        (
            .user(UUID(uuid: (0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A, 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F))),
            #"{"user":{"_0":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}}"#
        ),
        (.link(url: URL(filePath: "/tmp/a b")), #"{"link":{"url":"file:///tmp/a%20b"}}"#),
        (.link(url: Self.loot), #"{"link":{"url":"https://example.com/loot?id=L-42&q=a%20b"}}"#),
        (.sorted(by: .newest), #"{"sorted":{"by":"newest"}}"#),
        (
            .order(id: OrderID(rawValue: "A1"), total: Money(amount: 12.5, currency: "EUR"), note: nil),
            #"{"order":{"id":{"rawValue":"A1"},"total":{"amount":"12.5","currency":"EUR"}}}"#
        ),
        (
            .order(id: OrderID(rawValue: "A1"), total: Money(amount: -0.0, currency: "EUR"), note: "gift"),
            #"{"order":{"id":{"rawValue":"A1"},"note":"gift","total":{"amount":"-0.0","currency":"EUR"}}}"#
        ),
        (.amount(Decimal(sign: .plus, exponent: -2, significand: 1250)), #"{"amount":{"_0":"12.5"}}"#),
        (.serial(UInt64(Int64.max)), #"{"serial":{"_0":9223372036854775807}}"#),
        (.tags(["a", "b"], weights: [1.5, nil]), #"{"tags":{"_0":["a","b"],"weights":["1.5",null]}}"#),
    ]

    /// A web link with a query, as an app would carry one.
    static let loot = URL(string: "https://example.com/loot?id=L-42&q=a%20b") ?? URL(filePath: "/")

    /// A manifest that knows every case, so the Navigator pushes each one.
    static let manifest = """
        app: com.example.payloads
        root: home
        destinations:
          home: { url: "payloads://home" }
          item: { url: "payloads://item/{id}" }
          page: { url: "payloads://page/{_0}" }
          filter: { url: "payloads://filter" }
          offer: { url: "payloads://offer/{price}" }
          ratio: { url: "payloads://ratio" }
          event: { url: "payloads://event?at={at}" }
          user: { url: "payloads://user/{_0}" }
          link: { url: "payloads://link" }
          sorted: { url: "payloads://sorted/{by}" }
          order: { url: "payloads://order/{id.rawValue}" }
          amount: { url: "payloads://amount" }
          serial: { url: "payloads://serial" }
          tags: { url: "payloads://tags" }
        """

    @Test("A payload value round-trips through its destination and the canonical JSON", arguments: cases)
    func roundTrip(_ value: AppDestination, canonicalJSON expected: String) throws {
        // Given
        let destination = try Destination(encoding: value)
        // When
        let json = destination.canonicalJSON
        let parsed = try Destination(jsonValue: try JSONParser.parse(Array(json.utf8)))
        // Then
        #expect(json == expected)
        #expect(parsed == destination)
        #expect(try parsed.decoded(as: AppDestination.self) == value)
    }

    @MainActor
    @Test("A payload value pushed with the Navigator survives the trail's JSON", arguments: cases.map(\.0))
    func throughTrail(_ value: AppDestination) throws {
        // Given
        let navigator = Navigator(manifest: try Manifest(yaml: Self.manifest, source: "payloads.yml"), clock: { 1_000 })
        var steps: [Step] = []
        navigator.addObserver { steps.append($0.step) }
        // When
        let anomalies = try navigator.push(value)
        let trail = Trail(
            app: .init(bundleID: "com.example.payloads", version: "1.0", build: "1"),
            session: .init(id: "5E0C2B4A-2F55-4C0E-9A57-2E3A1C9D4B7F", started: "2026-11-02T14:45:05Z", pid: 42),
            steps: steps, final: navigator.state)
        let parsed = try Trail(json: trail.canonicalJSON)
        // Then
        #expect(anomalies.isEmpty)
        #expect(parsed == trail)
        guard case .push(let destination) = try #require(parsed.steps.first).op else {
            Issue.record("the trail's step is not a push: \(parsed.steps)")
            return
        }
        #expect(try destination.decoded(as: AppDestination.self) == value)
        #expect(navigator.topDestination(as: AppDestination.self) == value)
    }

    @Test(
        "A value a trail cannot carry is refused, naming its coding path",
        arguments: [
            (AppDestination.offer(price: .nan), "offer.price", "NaN"),
            (.offer(price: .infinity), "offer.price", "infinite"),
            (.ratio(-.infinity), "ratio._0", "infinite"),
            (.order(id: OrderID(rawValue: "A1"), total: Money(amount: .nan, currency: "EUR"), note: nil), "order.total.amount", "NaN"),
            (.tags([], weights: [1, .infinity]), "tags.weights[1]", "infinite"),
            (.serial(UInt64(Int64.max) + 1), "serial._0", "9223372036854775808"),
            (.serial(.max), "serial._0", "Int64.max"),
        ])
    func refused(_ value: AppDestination, path: String, detail: String) throws {
        // When
        let error = #expect(throws: DestinationError.self) { try Destination(encoding: value) }
        // Then
        #expect(error?.code == .unencodable)
        #expect(error?.message.contains("at \(path) ") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(detail) == true, "\(error?.message ?? "")")
    }

    // Not arguments of the test above: Swift Testing prints its arguments, and printing a NaN Date traps in Foundation.
    @Test("A date RFC 3339 cannot write is refused, naming its coding path")
    func refusedDates() throws {
        for seconds in [1e12, -1e12, .nan, .infinity] {
            // When
            let error = #expect(throws: DestinationError.self) {
                try Destination(encoding: AppDestination.event(at: Date(timeIntervalSinceReferenceDate: seconds)))
            }
            // Then
            #expect(error?.code == .unencodable)
            #expect(error?.message.contains("at event.at ") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("0000 to 9999") == true, "\(error?.message ?? "")")
        }
    }

    @Test(
        "A payload that does not fit the type is refused, naming its coding path",
        arguments: [
            (#"{"offer":{"price":true}}"#, "offer.price"),
            (#"{"offer":{"price":"nan"}}"#, "offer.price"),
            (#"{"offer":{"price":"2,5"}}"#, "offer.price"),
            (#"{"event":{"at":"2026-02-31T00:00:00Z"}}"#, "event.at"),
            (#"{"event":{"at":"1793717105"}}"#, "event.at"),
            (#"{"user":{"_0":"not-a-uuid"}}"#, "user._0"),
            (#"{"tags":{"_0":["a"],"weights":["x"]}}"#, "tags.weights[0]"),
            (#"{"order":{"id":{"rawValue":"A1"}}}"#, "order"),
            (#"{"page":{"_0":"4"}}"#, "page._0"),
        ])
    func mismatched(_ json: String, path: String) throws {
        // Given
        let destination = try Destination(jsonValue: try JSONParser.parse(Array(json.utf8)))
        // When
        let error = #expect(throws: DestinationError.self) { try destination.decoded(as: AppDestination.self) }
        // Then
        #expect(error?.code == .typeMismatch)
        #expect(error?.message.contains("at \(path),") == true, "\(error?.message ?? "")")
    }

    @Test("Dates are read with or without a fraction, with Z or an offset, and as seconds since 2001 as trails once held them")
    func datesRead() throws {
        // Given
        let expected = Date(timeIntervalSinceReferenceDate: 815_323_505.5)
        let texts: [JSONValue] = [
            "2026-11-02T14:45:05.5Z", "2026-11-02T14:45:05.500Z", "2026-11-02T15:45:05.5+01:00", "2026-11-02T09:15:05.500-05:30",
        ]
        for text in texts {
            // When
            let decoded = try Destination("event", ["at": text]).decoded(as: AppDestination.self)
            // Then
            #expect(decoded == .event(at: expected), "\(text)")
        }
        let legacy = try Destination("event", ["at": 815_323_505]).decoded(as: AppDestination.self)
        #expect(legacy == .event(at: Date(timeIntervalSinceReferenceDate: 815_323_505)))
    }

    @Test("A Double recorded as an integer before payload numbers were written as text still decodes")
    func doublesFromIntegers() throws {
        #expect(try Destination("offer", ["price": 3]).decoded(as: AppDestination.self) == .offer(price: 3))
    }

    @Test("Seeded random Doubles and Floats round-trip exactly, bit for bit")
    func randomFloatingPoint() throws {
        // Given
        var random = SplitMix64(seed: 0x5EED_D0B1)
        var doubles: [Double] = [0, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -.ulpOfOne, 0.1 + 0.2]
        while doubles.count < 2_000 {
            let bits = Double(bitPattern: random.next())
            if bits.isFinite { doubles.append(bits) }
            doubles.append((random.unit() - 0.5) * 1_000_000)
        }
        for value in doubles {
            // When
            let destination = try Destination(encoding: AppDestination.offer(price: value))
            let reparsed = try Destination(jsonValue: try JSONParser.parse(Array(destination.canonicalJSON.utf8)))
            // Then
            guard case .offer(let price) = try reparsed.decoded(as: AppDestination.self) else {
                Issue.record("\(value) did not decode as an offer")
                continue
            }
            #expect(price.bitPattern == value.bitPattern, "\(value) came back as \(price)")
        }
        for _ in 0..<1_000 {
            let value = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
            guard value.isFinite else { continue }
            guard case .ratio(let ratio) = try Destination(encoding: AppDestination.ratio(value)).decoded(as: AppDestination.self) else {
                Issue.record("\(value) did not decode as a ratio")
                continue
            }
            #expect(ratio.bitPattern == value.bitPattern, "\(value) came back as \(ratio)")
        }
    }
}
