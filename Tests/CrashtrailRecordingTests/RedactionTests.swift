import CrashtrailCore
import CrashtrailEncoding
import CrashtrailRecording
import CrashtrailReplay
import CrashtrailTestSupport
import Foundation
import Testing

/// Redaction (SPEC section 12): what the manifest marks never leaves the device, in any form.
@MainActor
@Suite("Redaction")
struct RedactionTests {
    static let manifestText = """
        app: com.example.piratebay
        tabs: [home, marketplace, myProfile]
        conditions:
          signedIn: { flow: login }
        destinations:
          home:        { url: "piratebay://home" }
          marketplace: { url: "piratebay://marketplace" }
          myProfile:   { url: "piratebay://me", requires: signedIn }
          item:        { url: "piratebay://item/{id}" }
          order:       { url: "piratebay://orders/{id.rawValue}?tab=summary", redact: id }
          profile:     { url: "piratebay://pirate/{id}", redact: [id] }
          search:      { url: "piratebay://search?q={text}", redact: [text] }
          page:        { url: "piratebay://marketplace/page/{_0:int}", redact: [_0] }
          login:       { url: "piratebay://login", presentation: modal }
        """
    static let key: [UInt8] = Array(0..<32)
    static let secrets = ["Captain Flint's Rum", "P-SECRET-7", "A-SECRET-1"]
    static let secretNumber: Int64 = 987_654_321

    static func steps() -> [Step] {
        [
            Step(t: 100, .select(tab: 1)),
            Step(t: 900, .push(Destination("search", ["text": .string(secrets[0])]))),
            Step(t: 1_900, .push(Destination("profile", ["id": .string(secrets[1])]))),
            Step(t: 2_900, .push(Destination("item", ["id": "L-42"]))),
            Step(t: 3_900, .open(.url("piratebay://orders/\(secrets[2])?tab=summary"))),
            Step(t: 4_900, .push(Destination("page", ["_0": .int(secretNumber)]))),
            Step(t: 5_900, .push(Destination("search", ["text": .string(secrets[0])]))),
        ]
    }

    @Test("The manifest's redact keys: placeholders or the start of one; anything else is refused, naming the key")
    func manifestKeys() throws {
        let manifest = try Manifest(yaml: Self.manifestText)
        #expect(manifest.spec(named: "order")?.redact == [["id"]])
        #expect(manifest.spec(named: "page")?.redact == [["_0"]])
        #expect(try Manifest(yaml: manifest.documentText).destinations == manifest.destinations)
        for (key, url) in [("name", "piratebay://pirate/{id}"), ("id.rawValue", "piratebay://pirate/{id}"), ("id", "piratebay://home")] {
            let text = "app: a\nroot: x\ndestinations:\n  x: { url: \"piratebay://x\" }\n  y: { url: \"\(url)\", redact: [\(key)] }\n"
            do {
                _ = try Manifest(yaml: text)
                Issue.record("redact \(key) on \(url) was accepted")
            } catch {
                #expect(error.code == .invalidRedact)
                #expect(error.message.contains("\"\(key)\""))
            }
        }
    }

    @Test("Stand-ins: keyed, stable within a key, strings and integers of the documented shape; other values untouched")
    func standIns() throws {
        let manifest = try Manifest(yaml: Self.manifestText)
        let redactor = Redactor(manifest: manifest, key: Self.key)
        let other = Redactor(manifest: manifest, key: Array(repeating: 7, count: 32))
        let search = redactor.redact(Destination("search", ["text": "rum"]))
        let text = try #require(search.payload["text"]?.stringValue)
        #expect(text.count == 17 && text.hasPrefix("redacted-"))
        #expect(text.dropFirst(9).allSatisfy { "0123456789abcdef".contains($0) })
        #expect(redactor.redact(Destination("search", ["text": "rum"])) == search)
        #expect(other.redact(Destination("search", ["text": "rum"])) != search)
        #expect(redactor.redact(Destination("search", ["text": "tea"])) != search)
        guard case .int(let number) = redactor.redact(Destination("page", ["_0": 3])).payload["_0"] else {
            Issue.record("an integer stand-in is not an integer")
            return
        }
        #expect(number >= 0 && number <= Int64(UInt32.max) && number != 3)
        #expect(redactor.redact(Destination("item", ["id": "L-42"])) == Destination("item", ["id": "L-42"]))
        let order = redactor.redact(Destination("order", ["id": .object(["rawValue": "A1"])]))
        #expect(order.payload["id"]?.objectValue?["rawValue"]?.stringValue?.hasPrefix("redacted-") == true)
        // An open by URL becomes an open of the redacted destination; an unknown URL stays as it is
        let opened = redactor.redact(Step(t: 1, .open(.url("piratebay://search?q=rum"))))
        #expect(opened.op == .open(.destination(search)))
        #expect(redactor.redact(Step(t: 1, .open(.url("piratebay://nowhere")))).op == .open(.url("piratebay://nowhere")))
    }

    @Test("Redacted values never appear in the journal, any sink's output, any encoded form or the replay")
    func neverLeaves() throws {
        let folder = try TemporaryFolder("redaction")
        defer { folder.remove() }
        let manifest = try Manifest(yaml: Self.manifestText)
        let journal = folder.url.appendingPathComponent("session.ctj")
        let recorder = TrailRecorder(
            manifest: manifest, app: Trail.AppInfo(bundleID: manifest.app, version: "1", build: "1"),
            session: Trail.Session(id: "00000000-0000-4000-8000-000000000012", started: "2026-11-01T00:00:00.000Z", pid: 12),
            redactionKey: Self.key)
        try recorder.startJournal(at: journal)
        let handed = Self.sinks(on: recorder)
        for step in Self.steps() { try recorder.record(step) }
        recorder.waitForSinks()

        let trail = recorder.trail(stampingFinal: true)
        let codec = TrailCodec(manifests: [manifest])
        let replay = Replayer(manifest: manifest).replay(trail, report: "r")
        var outputs: [(String, [UInt8])] = [
            ("journal", Array(try Data(contentsOf: journal))),
            ("trail JSON", trail.canonicalJSON),
            ("recovered trail", try TrailJournal.recover(at: journal).trail.canonicalJSON),
            ("ct1", Array(try codec.encodeText(trail).utf8)),
            ("binary", try codec.encodeBinary(trail)),
            ("binary, without a manifest", try TrailCodec().encodeBinary(trail)),
            ("replay JSON", Array(ReplayRenderer.render(replay, as: .json, options: RenderOptions()).utf8)),
            ("replay text", Array(ReplayRenderer.render(replay, as: .text, options: RenderOptions()).utf8)),
        ]
        for (index, bytes) in handed.all.enumerated() { outputs.append(("sink output \(index)", bytes)) }
        #expect(handed.all.count >= 3)
        // Compressed forms are searched after inflating too: their decoded JSON must hold no secret either.
        outputs.append(("binary, decoded", try codec.decode(try codec.encodeBinary(trail)).canonicalJSON))
        for (name, bytes) in outputs {
            for secret in Self.secrets + [String(Self.secretNumber)] {
                #expect(!Self.contains(bytes, Array(secret.utf8)), "\(name) holds \(secret)")
            }
            let escaped = Array("Captain Flint\\u0027s".utf8)
            #expect(!Self.contains(bytes, escaped))
        }
        // The same value twice gives the same stand-in, so the replay still shows one search twice
        #expect(trail.steps[1].op == trail.steps[6].op)
        // Replay marks the steps and links that hold stand-ins
        #expect(replay.steps.map(\.redacted) == [false, true, true, false, true, true, true])
        #expect(replay.links.links.contains { $0.redacted })
        #expect(replay.links.links.filter { !$0.redacted }.allSatisfy { !manifest.holdsStandIn($0.destination) })
        #expect(replay.links.reproduces)
    }

    @Test("Fail-closed: a destination the manifest does not know, pushed through the Navigator, leaves no plain text anywhere")
    func unknownDestinations() throws {
        // Given a manifest that redacts nothing, and a recorder observing a Navigator
        let folder = try TemporaryFolder("redaction")
        defer { folder.remove() }
        let manifest = try Manifest(
            yaml: """
                app: com.example.piratebay
                root: home
                destinations:
                  home: { url: "piratebay://home" }
                  item: { url: "piratebay://item/{id}" }
                """)
        let navigator = Navigator(manifest: manifest, clock: { 1_000 })
        let recorder = TrailRecorder(
            navigator: navigator, app: Trail.AppInfo(bundleID: manifest.app, version: "1", build: "1"),
            session: Trail.Session(id: "00000000-0000-4000-8000-000000000013", started: "2026-11-01T00:00:00.000Z", pid: 13))
        let journal = folder.url.appendingPathComponent("session.ctj")
        try recorder.startJournal(at: journal)
        let handed = Self.sinks(on: recorder)

        // When the app pushes a case the manifest lacks, and opens a URL no route matches
        navigator.push(Destination("secretProfile", ["secretProfile": .object(["email": "jane@example.com", "age": .int(41)])]))
        navigator.push(Destination("item", ["id": "L-42"]))
        navigator.open(url: "piratebay://reset?email=jane@example.com")
        recorder.waitForSinks()

        // Then no output holds the plain text; the unknown destination keeps its name, the known one its value
        let trail = recorder.trail(stampingFinal: true)
        let codec = TrailCodec(manifests: [manifest])
        var outputs: [(String, [UInt8])] = [
            ("journal", Array(try Data(contentsOf: journal))), ("trail JSON", trail.canonicalJSON),
            ("recovered trail", try TrailJournal.recover(at: journal).trail.canonicalJSON),
            ("ct1", Array(try codec.encodeText(trail).utf8)),
            ("binary", try codec.encodeBinary(trail)), ("binary, decoded", try codec.decode(try codec.encodeBinary(trail)).canonicalJSON),
        ]
        for (index, bytes) in handed.all.enumerated() { outputs.append(("sink output \(index)", bytes)) }
        for (name, bytes) in outputs {
            for secret in ["jane@example.com", "jane", "example.com"] {
                #expect(!Self.contains(bytes, Array(secret.utf8)), "\(name) holds \(secret)")
            }
        }
        let text = String(decoding: trail.canonicalJSON, as: UTF8.self)
        #expect(text.contains("secretProfile") && text.contains("redacted-"), "\(text)")
        #expect(text.contains("L-42"), "a known destination without redact keys keeps its values")
        #expect(text.contains("piratebay://reset/redacted-") || text.contains("piratebay:\\/\\/reset\\/redacted-"), "\(text)")
    }

    /// A text, a binary and a split-keys sink on `recorder`, handing what they get to the box returned.
    static func sinks(on recorder: TrailRecorder) -> SinkBox {
        let handed = SinkBox()
        recorder.addSink(.text { text in handed.add(Array(text.utf8)) })
        recorder.addSink(.binary { bytes in handed.add(bytes) })
        recorder.addSink(
            .keys(limit: 64) { keys in handed.add(Array(keys.sorted { $0.key < $1.key }.map { $0.key + $0.value }.joined().utf8)) })
        return handed
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return true }
        }
        return false
    }

    @Test("An app that reports the states it shows is redacted too: observed states are compared as stand-ins")
    func observedStates() throws {
        let manifest = try Manifest(yaml: Self.manifestText)
        let recorder = TrailRecorder(
            manifest: manifest, app: Trail.AppInfo(bundleID: manifest.app, version: "1", build: "1"),
            session: Trail.Session(id: "s", started: "2026-11-01T00:00:00.000Z", pid: 1), redactionKey: Self.key)
        var state = manifest.launchState
        state.tab = 1
        state.stacks[1].append(Destination("profile", ["id": .string(Self.secrets[1])]))
        try recorder.record(observedState: state, at: 1_000)
        state.stacks[1].append(Destination("item", ["id": "L-1"]))
        try recorder.record(observedState: state, at: 2_000)
        let trail = recorder.trail(stampingFinal: true)
        // The second observation added one push: the profile was recognised as the same screen
        #expect(trail.steps.count == 3, "\(trail.steps.map(\.jsonValue))")
        #expect(!Self.contains(trail.canonicalJSON, Array(Self.secrets[1].utf8)))
    }
}

final class SinkBox: @unchecked Sendable {
    private let lock = NSLock()
    private var outputs: [[UInt8]] = []
    func add(_ bytes: [UInt8]) { lock.withLock { outputs.append(bytes) } }
    var all: [[UInt8]] { lock.withLock { outputs } }
}
