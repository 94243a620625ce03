import Foundation
import HTTPArchive
import Testing
@testable import ContractModel
@testable import MockBackend

/// Journal to HAR and back, the export's filters and byte bound, the admin route, and the incremental HAR file.
@Suite struct JournalHARTests {
    /// The 2×2 PNG of the bundled fixtures: bytes that are not UTF-8.
    static let png = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGM4UaEBRAwQCgAp7gWhjAnOiAAAAABJRU5ErkJggg==")!)

    static func entry(_ sequence: Int, status: Int? = 200, contract: String? = "getImage", fault: String? = nil, body: [UInt8] = png,
                      size: Int? = nil) -> JournalEntry {
        JournalEntry(sequence: sequence, time: Date(timeIntervalSince1970: 1_764_000_000.123), method: "GET", path: "/images/a.png",
                     contract: contract, status: status, authUser: nil, rule: fault.map { "rule \($0)" }, fault: fault, durationMs: 7,
                     query: "x=1&y=a%20b", requestHeaders: [HeaderField(name: "Accept", value: "*/*")],
                     requestBody: CapturedBody(size: 5, bytes: Array("hello".utf8)),
                     responseHeaders: status == nil ? [] : [HeaderField(name: "Content-Type", value: "image/png")],
                     responseBody: status == nil ? nil : CapturedBody(size: size ?? body.count, bytes: body),
                     violations: [ExchangeViolation(contract: contract, pointer: "/x", expected: "a", got: "b", side: .server)])
    }

    private func roundTrip(_ entry: JournalEntry) throws -> (HAREntry, JournalEntry) {
        let text = HARWriter.document(HARLog(creator: .spotCheck, entries: [JournalHAR.entry(entry, origin: "http://127.0.0.1:3000")]))
        let log = try HARReader.read(Data(text.utf8), file: "t.har")
        return (log.entries[0], JournalHAR.journalEntry(log.entries[0], contracts: nil))
    }

    @Test func aBinaryBodyIsBase64AndEveryFieldComesBack() throws {
        let original = Self.entry(4)
        let (har, back) = try roundTrip(original)
        #expect(har.response.content.encoding == "base64")
        #expect(har.response.content.bytes == Self.png)
        #expect(har.request.url == "http://127.0.0.1:3000/images/a.png?x=1&y=a%20b")
        #expect(har.request.queryString == [HARPair(name: "x", value: "1"), HARPair(name: "y", value: "a b")])
        #expect(back == original)
    }

    @Test func noAnswerIsStatusZeroWithAnErrorAndTheFaultNoted() throws {
        let original = Self.entry(2, status: nil, fault: "drop")
        let (har, back) = try roundTrip(original)
        #expect(har.response.status == 0)
        #expect(har.errorText?.contains("drop") == true)
        #expect(har.custom["_spotcheck"]?["fault"]?.stringValue == "drop")
        #expect(back == original)
    }

    @Test func aCutBodySaysSoAndKeepsItsFullSize() throws {
        let (har, back) = try roundTrip(Self.entry(1, body: Array("abc".utf8), size: 100_000))
        #expect(har.response.content.size == 100_000)
        #expect(har.response.content.comment?.contains("3 of 100000") == true)
        #expect(back.responseBody?.truncated == true)
    }

    @Test func filtersAsTheDashboardDoes() {
        let entries = [Self.entry(1), Self.entry(2, status: 503, fault: "status"), Self.entry(3, status: nil, contract: "uploadPhoto", fault: "stall")]
        func sequences(_ filter: JournalHARFilter) -> [Int] { entries.filter(filter.accepts).map(\.sequence) }
        #expect(sequences(JournalHARFilter(status: "5xx")) == [2])
        #expect(sequences(JournalHARFilter(status: "50")) == [2])
        #expect(sequences(JournalHARFilter(status: "none")) == [3])
        #expect(sequences(JournalHARFilter(contract: "uploadPhoto")) == [3])
        #expect(sequences(JournalHARFilter(since: 1)) == [2, 3])
        #expect(sequences(JournalHARFilter(failuresOnly: true)) == [1, 2, 3])  // entry 1 carries a violation
    }

    @Test func anExportStopsAtItsByteBoundAndSaysWhereToContinue() throws {
        let big = Array(repeating: UInt8(ascii: "a"), count: 10_000)
        let entries = (1...3).map { Self.entry($0, body: big) }
        let result = JournalHARExport.text(entries, filter: JournalHARFilter(), origin: "http://h", byteLimit: 15_000)
        #expect(result.count == 1)
        #expect(result.continueAfter == 1)
        #expect(result.text.utf8.count < 15_000 + 1_000)
        let log = try HARReader.read(Data(result.text.utf8), file: "e.har")
        #expect(log.entries.count == 1)
        #expect(log.comment?.contains("since=1") == true)
        let rest = JournalHARExport.text(entries, filter: JournalHARFilter(since: 1), origin: "http://h", byteLimit: 15_000)
        #expect(rest.continueAfter == 2)
        let all = JournalHARExport.text(entries, filter: JournalHARFilter(), origin: "http://h", byteLimit: 1 << 20)
        #expect(all.count == 3 && all.continueAfter == nil)
    }

    @Test func theAdminRouteServesTheFilteredJournalAsAHARDownload() async throws {
        try await withServer { _, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/a"))
            _ = await connection.readResponse()
            try await connection.send(rawRequest("GET", "/b?q=1"))
            _ = await connection.readResponse()
            try await connection.send(rawRequest("GET", "/__spotcheck/journal.har?since=1"))
            let read = await connection.readResponse()
            #expect(read.status == 200)
            #expect(read.text.lowercased().contains("content-disposition: attachment; filename=\"spotcheck.har\""))
            let log = try HARReader.read(Data(read.body ?? []), file: "journal.har")
            #expect(log.entries.map(\.request.url) == ["http://127.0.0.1:\(address.port)/b?q=1"])
            try await connection.send(rawRequest("GET", "/__spotcheck/journal.har?since=x"))
            #expect(await connection.readResponse().status == 400)
            try await connection.send(rawRequest("DELETE", "/__spotcheck/journal.har"))
            #expect(await connection.readResponse().status == 405)
        }
    }

    @Test func theHARFileIsCompleteAfterEveryExchange() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rec-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: file) }
        let recorder = try HARFileRecorder(file: file, origin: "http://up:3000")
        #expect(try HARReader.read(Data(contentsOf: file), file: "r").entries.isEmpty)
        recorder.record(Self.entry(1))
        #expect(try HARReader.read(Data(contentsOf: file), file: "r").entries.count == 1)
        recorder.record(Self.entry(2, status: 503, fault: "status"))
        // Not closed: what a kill leaves behind is still a whole HAR.
        let log = try HARReader.read(Data(contentsOf: file), file: "r")
        #expect(log.entries.map(\.response.status) == [200, 503])
        recorder.close()
        #expect(recorder.count == 2 && recorder.errors.isEmpty)
    }
}
