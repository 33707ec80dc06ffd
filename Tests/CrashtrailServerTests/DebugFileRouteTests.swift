import CrashtrailEncoding
import CrashtrailStore
import CrashtrailSymbols
import CrashtrailTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import CrashtrailServer

/// Sentry's debug-file chunk upload as `crashtrail serve` speaks it (SPEC section 16), in process: the options, chunks
/// plain and gzipped, assembling, and what is refused.
@Suite("crashtrail serve: debug file upload")
struct DebugFileRouteTests {
    static let dsym = SymbolFixtures.shared.url("AppC.dSYM/Contents/Resources/DWARF/AppC")
    static let optionsPath = "/api/0/organizations/acme/chunk-upload/"
    static let assemblePath = "/api/0/projects/acme/ios/files/difs/assemble/"

    /// A multipart body of chunks, each a part named `file` (or `file_gzip`, gzipped) with its SHA-1 as the filename.
    static func multipart(_ chunks: [[UInt8]], gzip: Bool = false, boundary: String = "crashtrail-boundary") -> [UInt8] {
        var body: [UInt8] = []
        for chunk in chunks {
            let name = gzip ? "file_gzip" : "file"
            body += Array(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(ChunkedUpload.sha1(chunk))\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                    .utf8)
            body += gzip ? Gzip.wrap(chunk) : chunk
            body += Array("\r\n".utf8)
        }
        return body + Array("--\(boundary)--\r\n".utf8)
    }

    static func multipartHeaders(_ key: String, boundary: String = "crashtrail-boundary") -> HTTPFields {
        [.authorization: "Bearer \(key)", .contentType: "multipart/form-data; boundary=\(boundary)"]
    }

    /// The assemble request for a file cut into `chunks`.
    static func assembleBody(file: [UInt8], chunks: [[UInt8]], name: String = "AppC") -> [UInt8] {
        let list = chunks.map { "\"\(ChunkedUpload.sha1($0))\"" }.joined(separator: ",")
        return Array(#"{"\#(ChunkedUpload.sha1(file))":{"name":"\#(name)","debug_id":null,"chunks":[\#(list)]}}"#.utf8)
    }

    /// `bytes` cut into pieces of `size`.
    static func chunks(_ bytes: [UInt8], size: Int) -> [[UInt8]] {
        stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min(bytes.count, $0 + size)]) }
    }

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any], "\(response.text)")
    }

    @Test("The options say how sentry-cli must upload, to a debug-files token only: a DSN key is 403")
    func options() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let token = fixture.uploadToken
        _ = fixture.otherUploadToken  // another project with a token of its own
        let (anonymous, wrong, dsnKey, options) = try await fixture.test { client in
            (
                try await client.execute(uri: Self.optionsPath, method: .get),
                try await client.execute(uri: Self.optionsPath, method: .get, headers: bearer("00000000000000000000000000000000")),
                try await client.execute(uri: Self.optionsPath, method: .get, headers: bearer(ServerFixture.key)),
                try await client.execute(uri: Self.optionsPath, method: .get, headers: bearer(token))
            )
        }
        #expect(anonymous.status == .unauthorized)
        #expect(wrong.status == .unauthorized)
        #expect(dsnKey.status == .forbidden, "a DSN key uploads nothing")
        #expect(dsnKey.detail.contains("a DSN key only sends reports"))
        #expect(options.status == .ok)
        let answer = try Self.json(options)
        #expect(answer["chunkSize"] as? Int == ChunkedUpload.chunkSize)
        #expect(answer["hashAlgorithm"] as? String == "sha1")
        #expect(answer["compression"] as? [String] == ["gzip"])
        #expect(answer["url"] as? String == Self.optionsPath)
    }

    @Test("Chunks, some gzipped, then assemble: the file is stored by UUID; missing chunks are asked for first")
    func uploadAndAssemble() async throws {
        // Given a dSYM cut into three chunks
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let token = fixture.uploadToken
        _ = fixture.otherUploadToken  // another project with a token of its own
        let file = Array(try Data(contentsOf: Self.dsym))
        let chunks = Self.chunks(file, size: file.count / 3 + 1)
        try #require(chunks.count == 3)
        let assemble = Self.assembleBody(file: file, chunks: chunks)

        // When
        let (early, first, second, done, again) = try await fixture.test { client in
            let early = try await client.post(Self.assemblePath, assemble, headers: bearer(token))
            let first = try await client.post(
                Self.optionsPath, Self.multipart(Array(chunks.prefix(2)), gzip: true), headers: Self.multipartHeaders(token))
            let second = try await client.post(
                Self.optionsPath, Self.multipart([chunks[2]]), headers: Self.multipartHeaders(token))
            let done = try await client.post(Self.assemblePath, assemble, headers: bearer(token))
            let again = try await client.post(Self.assemblePath, assemble, headers: bearer(token))
            return (early, first, second, done, again)
        }

        // Then
        let checksum = ChunkedUpload.sha1(file)
        #expect(early.status == .ok)
        let missing = try #require(try Self.json(early)[checksum] as? [String: Any])
        #expect(missing["state"] as? String == "not_found")
        #expect((missing["missingChunks"] as? [String])?.count == 3)
        #expect(first.status == .ok && second.status == .ok, "\(first.text) \(second.text)")
        let stored = try #require(try Self.json(done)[checksum] as? [String: Any], "\(done.text)")
        #expect(stored["state"] as? String == "ok", "\(done.text)")
        let dif = try #require(stored["dif"] as? [String: Any])
        #expect(dif["debugId"] as? String == "4c4c44c2-5555-3144-a122-28aff5799215")
        #expect(dif["cpuName"] as? String == "arm64")
        #expect((try Self.json(again)[checksum] as? [String: Any])?["state"] as? String == "ok")
        let files = try fixture.service.store.debugFiles()
        #expect(files.map(\.uuid) == ["4c4c44c2-5555-3144-a122-28aff5799215"])
        #expect(files.first?.kind == "dwarf")
        #expect(files.first?.sha1 == checksum)
        // The chunks of a stored file are not kept.
        #expect(try fixture.service.store.uploadChunks(among: chunks.map(ChunkedUpload.sha1), project: 1).isEmpty)
    }

    @Test("A dSYM's UUID map is acknowledged as Sentry does, XML or binary, and nothing of it kept; one that is none is refused")
    func uuidMaps() async throws {
        // Given the UUID maps of a dSYM as XML and as a binary property list, one that is no property list, and one
        // that holds no DBG keys, each named by the dSYM's UUID
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let token = fixture.uploadToken
        let name = "4C4C44C2-5555-3144-A122-28AFF5799215.plist"
        let entries: [String: Any] = ["DBGOriginalUUID": "7F3A5C1E-0000-4000-8000-00000000A0C0", "DBGVersion": "3"]
        let xml = Array(try PropertyListSerialization.data(fromPropertyList: entries, format: .xml, options: 0))
        let binary = Array(try PropertyListSerialization.data(fromPropertyList: entries, format: .binary, options: 0))
        let garbage = Array("not a property list".utf8)
        let noKeys = Array(try PropertyListSerialization.data(fromPropertyList: ["Version": "1"], format: .xml, options: 0))
        let files = [xml, binary, garbage, noKeys]

        // When each is uploaded and assembled
        let answers = try await fixture.test { client in
            var answers: [TestResponse] = []
            for file in files {
                _ = try await client.post(Self.optionsPath, Self.multipart([file]), headers: Self.multipartHeaders(token))
                answers.append(
                    try await client.post(
                        Self.assemblePath, Self.assembleBody(file: file, chunks: [file], name: name), headers: bearer(token)))
            }
            return answers
        }

        // Then the two UUID maps are ok, with Sentry's uuidmap file format, and nothing is stored or left of their chunks
        for (file, answer) in zip(files.prefix(2), answers.prefix(2)) {
            let state = try #require(try Self.json(answer)[ChunkedUpload.sha1(file)] as? [String: Any], "\(answer.text)")
            #expect(state["state"] as? String == "ok", "\(answer.text)")
            let dif = try #require(state["dif"] as? [String: Any])
            #expect(dif["symbolType"] as? String == "uuidmap")
            #expect(dif["debugId"] as? String == "4c4c44c2-5555-3144-a122-28aff5799215")
        }
        #expect(try fixture.service.store.debugFiles().isEmpty)
        #expect(try fixture.service.store.uploadChunks(among: files.prefix(2).map(ChunkedUpload.sha1), project: 1).isEmpty)
        // And the others are errors naming the file and what is wrong
        let refusals = try zip(files.suffix(2), answers.suffix(2)).map { file, answer in
            try #require(try Self.json(answer)[ChunkedUpload.sha1(file)] as? [String: Any], "\(answer.text)")
        }
        #expect(refusals.map { $0["state"] as? String } == ["error", "error"])
        #expect((refusals[0]["detail"] as? String)?.contains("\(name) is named as a dSYM's UUID map but is no property list") == true)
        #expect((refusals[1]["detail"] as? String)?.contains("holds no DBG keys") == true)
    }

    @Test("A universal file uploaded again is answered ok at once: no chunk is asked for, nothing is stored twice")
    func universalUploadedAgain() async throws {
        // Given a universal dSYM (two slices, each stored by its own SHA-1) uploaded and assembled once
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let token = fixture.uploadToken
        _ = fixture.otherUploadToken  // another project with a token of its own
        let file = Array(try Data(contentsOf: SymbolFixtures.shared.url("AppFat.dSYM/Contents/Resources/DWARF/AppFat")))
        let chunks = Self.chunks(file, size: ChunkedUpload.chunkSize)
        let assemble = Self.assembleBody(file: file, chunks: chunks, name: "AppFat")

        // When it is assembled again, as sentry-cli asks before sending chunks
        let (done, again) = try await fixture.test { client in
            _ = try await client.post(Self.optionsPath, Self.multipart(chunks), headers: Self.multipartHeaders(token))
            let done = try await client.post(Self.assemblePath, assemble, headers: bearer(token))
            let again = try await client.post(Self.assemblePath, assemble, headers: bearer(token))
            return (done, again)
        }

        // Then the second answer is ok with no missing chunk, and the store holds each slice once
        let checksum = ChunkedUpload.sha1(file)
        #expect((try Self.json(done)[checksum] as? [String: Any])?["state"] as? String == "ok", "\(done.text)")
        let second = try #require(try Self.json(again)[checksum] as? [String: Any], "\(again.text)")
        #expect(second["state"] as? String == "ok")
        #expect((second["missingChunks"] as? [String] ?? []).isEmpty)
        let files = try fixture.service.store.debugFiles()
        #expect(files.count == 2)
        #expect(Set(files.map(\.sha1)).count == 2)
        #expect(!files.map(\.sha1).contains(checksum))
    }

    @Test("A chunk whose bytes are not its name's SHA-1, a body that is not multipart, and a file that is no Mach-O are refused")
    func refusals() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let token = fixture.uploadToken
        _ = fixture.otherUploadToken  // another project with a token of its own
        let text = Array("not a debug file, but long enough to be read\n".utf8)
        var damaged = Self.multipart([text])
        // Flip a byte of the chunk: its name no longer matches.
        let start = try #require(damaged.firstRange(of: Array("not a debug".utf8))).lowerBound
        damaged[start] = UInt8(ascii: "N")
        let corrupted = damaged
        let (checksum, plain, stored, assembled) = try await fixture.test { client in
            (
                try await client.post(Self.optionsPath, corrupted, headers: Self.multipartHeaders(token)),
                try await client.post(Self.optionsPath, text, headers: bearer(token)),
                try await client.post(Self.optionsPath, Self.multipart([text]), headers: Self.multipartHeaders(token)),
                try await client.post(
                    Self.assemblePath, Self.assembleBody(file: text, chunks: [text], name: "notes.txt"), headers: bearer(token))
            )
        }
        #expect(checksum.status == .badRequest)
        #expect(checksum.detail.contains("damaged on the way"), "\(checksum.detail)")
        #expect(plain.status == .badRequest)
        #expect(plain.detail.contains("multipart/form-data"), "\(plain.detail)")
        #expect(stored.status == .ok)
        let state = try #require(try Self.json(assembled)[ChunkedUpload.sha1(text)] as? [String: Any], "\(assembled.text)")
        #expect(state["state"] as? String == "error")
        #expect((state["detail"] as? String)?.contains("notes.txt") == true, "\(state)")
        #expect(try fixture.service.store.debugFiles().isEmpty)
    }

    @Test("A project assembles only the chunks its own token sent: another project's of the same bytes stay that project's")
    func chunksOfAnotherProject() async throws {
        // Given a dSYM cut into chunks, all sent with android's token
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let (token, otherToken) = (fixture.uploadToken, fixture.otherUploadToken)
        let file = Array(try Data(contentsOf: Self.dsym))
        let chunks = Self.chunks(file, size: file.count / 3 + 1)
        let assemble = Self.assembleBody(file: file, chunks: chunks)

        // When ios assembles the file, then sends its own chunks and assembles again
        let (sent, borrowed, own, done) = try await fixture.test { client in
            (
                try await client.post(Self.optionsPath, Self.multipart(chunks), headers: Self.multipartHeaders(otherToken)),
                try await client.post(Self.assemblePath, assemble, headers: bearer(token)),
                try await client.post(Self.optionsPath, Self.multipart(chunks), headers: Self.multipartHeaders(token)),
                try await client.post(Self.assemblePath, assemble, headers: bearer(token))
            )
        }

        // Then android's chunks made nothing for ios, which is asked for every chunk; its own make the file, and
        // android's chunks are still android's
        let checksum = ChunkedUpload.sha1(file)
        #expect(sent.status == .ok && own.status == .ok)
        let missing = try #require(try Self.json(borrowed)[checksum] as? [String: Any], "\(borrowed.text)")
        #expect(missing["state"] as? String == "not_found")
        #expect((missing["missingChunks"] as? [String])?.count == chunks.count)
        #expect((try Self.json(done)[checksum] as? [String: Any])?["state"] as? String == "ok", "\(done.text)")
        let sha1s = chunks.map(ChunkedUpload.sha1)
        #expect(try fixture.service.store.uploadChunks(among: sha1s, project: 1).isEmpty)
        #expect(try fixture.service.store.uploadChunks(among: sha1s, project: 2) == Set(sha1s))
    }

    @Test("Assembling with another project's token is 403, for a project that is not here 404; a body over the limit 413")
    func projectsAndLimits() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let token = fixture.uploadToken
        let otherToken = fixture.otherUploadToken
        let body = Array(#"{}"#.utf8)
        let (other, unknown, large) = try await fixture.test { client in
            (
                try await client.post(Self.assemblePath, body, headers: bearer(otherToken)),
                try await client.post("/api/0/projects/acme/watchos/files/difs/assemble/", body, headers: bearer(token)),
                try await client.post(
                    Self.assemblePath, [UInt8](repeating: UInt8(ascii: " "), count: DebugFileRoutes.maximumAssembleRequest + 1),
                    headers: bearer(token))
            )
        }
        #expect(other.status == .forbidden)
        #expect(unknown.status == .notFound)
        #expect(unknown.detail.contains("watchos"))
        #expect(large.status == .contentTooLarge)
    }

    @Test("Chunks past the bytes a request may carry are refused, and the service goes on")
    func requestRoom() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let token = fixture.uploadToken
        var generator = SplitMix64(seed: 4545)
        let full = (0..<4).map { _ in (0..<ChunkedUpload.chunkSize).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        let small = Array("one chunk too many".utf8)
        let (plain, after) = try await fixture.test { client in
            (
                try await client.post(Self.optionsPath, Self.multipart(full + [small]), headers: Self.multipartHeaders(token)),
                try await client.execute(uri: Self.optionsPath, method: .get, headers: bearer(token))
            )
        }
        #expect(plain.status == .contentTooLarge, "\(plain.detail)")
        #expect(plain.detail.contains("more than the \(ChunkedUpload.maximumRequestSize) bytes a request may carry"))
        #expect(after.status == .ok)
    }
}
