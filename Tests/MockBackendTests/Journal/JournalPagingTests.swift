import ContractKit
import Foundation
import NIOCore
import Testing
@testable import ContractModel
@testable import MockBackend

/// `GET /__spotcheck/journal` is paged like `state` (issue 29, finding 5): summaries only, newest first, at most `limit`
/// entries and `maxBytes` of JSON per page, a cursor to the next; bodies come from `journal/{sequence}`.
@Suite struct JournalPagingTests {
    /// A journal as full as the default: 1,000 entries, each with 64 KiB request and response bodies.
    private func fullJournal(entries: Int = 1000) -> Journal {
        let journal = Journal(limit: 1000)
        let body = CapturedBody(size: 64 * 1024, bytes: [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024))
        // Extra entries first, so the ring has wrapped and the oldest were dropped.
        for i in 0..<(entries + 37) {
            journal.record(JournalEntry(time: Date(timeIntervalSince1970: 1_700_000_000), method: "POST", path: "/api/v1/announcements",
                                        contract: "createAnnouncement", status: 400, authUser: nil, rule: nil, fault: nil,
                                        durationMs: i % 7, requestBody: body, responseBody: body))
        }
        return journal
    }

    private func page(_ journal: Journal, _ request: JournalPageRequest) throws -> (bytes: Int, json: JSONValue) {
        let body = JournalPage.encode(journal, request)
        return (body.readableBytes, try JSONValue(parsing: Data(body.readableBytesView)))
    }

    @Test func aPageStopsAtItsByteBudgetWhateverTheBodiesWeigh() throws {
        let journal = fullJournal()
        for budget in [1000, 20_000, 100_000] {
            let (bytes, json) = try page(journal, JournalPageRequest(maxBytes: budget))
            #expect(bytes <= budget, "budget \(budget)")
            let shown = json["entries"]?.arrayValue ?? []
            #expect(!shown.isEmpty && shown.count < 1000)
            #expect(json["next"]?.intValue == shown.last?["sequence"]?.intValue)
            #expect(json["count"] == 1000)
        }
        // The default page holds every summary of a full journal, in far less than one body's worth per entry.
        let (bytes, json) = try page(journal, JournalPageRequest())
        #expect(json["entries"]?.arrayValue?.count == 1000)
        #expect(json["next"] == .null)
        #expect(bytes < 1000 * 1024)
        #expect(bytes <= JournalPageRequest.defaultMaxBytes)
    }

    @Test func summariesCarryNoHeadersOrBodies() throws {
        let (_, json) = try page(fullJournal(entries: 3), JournalPageRequest())
        let first = try #require(json["entries"]?.arrayValue?.first?.objectValue)
        for key in ["requestBody", "responseBody", "requestHeaders", "responseHeaders"] { #expect(first[key] == nil, "\(key)") }
        #expect(first["requestBytes"] == 65536)
        #expect(first["contract"] == "createAnnouncement")
    }

    @Test func cursorsWalkEveryEntryNewestFirstOnceEvenWhileNewOnesArrive() throws {
        let journal = fullJournal()
        let newest = journal.entries().last?.sequence ?? 0
        var seen: [Int] = []
        var cursor: Int?
        var pages = 0
        repeat {
            let (bytes, json) = try page(journal, JournalPageRequest(limit: 300, maxBytes: 40_000, cursor: cursor))
            #expect(bytes <= 40_000)
            seen += json["entries"]?.arrayValue?.compactMap { $0["sequence"]?.intValue } ?? []
            cursor = json["next"]?.intValue
            pages += 1
            // An entry recorded meanwhile lands above the cursor, so it never shifts the pages still to come.
            if pages == 2 { journal.record(JournalEntry(time: Date(), method: "GET", path: "/late", contract: nil, status: 200,
                                                         authUser: nil, rule: nil, fault: nil, durationMs: 0)) }
        } while cursor != nil && pages < 100
        // The late entry made the full ring drop its oldest, which no page shows; every other one shows once.
        #expect(seen == Array((newest - 998...newest).reversed()))
        #expect(pages > 3)
        // A limit ends a page too, and says where to go on.
        let (_, limited) = try page(journal, JournalPageRequest(limit: 2))
        #expect(limited["entries"]?.arrayValue?.count == 2)
        #expect(limited["next"]?.intValue == newest)
    }

    @Test func theAdminRouteServesPagesAndTheEntryDetail() async throws {
        try await withServer { _, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            for i in 1...3 {
                try await connection.send(rawRequest("POST", "/api/v1/announcements?n=\(i)", body: String(repeating: "b", count: 1000)))
                _ = await connection.readResponse()
            }
            try await connection.send(rawRequest("GET", "/__spotcheck/journal?limit=2"))
            let first = try JSONValue(parsing: Data(await connection.readResponse().body ?? []))
            #expect(first["count"] == 3)
            #expect(first["entries"]?.arrayValue?.compactMap { $0["target"]?.stringValue } == ["/api/v1/announcements?n=3", "/api/v1/announcements?n=2"])
            let next = try #require(first["next"]?.intValue)
            try await connection.send(rawRequest("GET", "/__spotcheck/journal?limit=2&cursor=\(next)"))
            let second = try JSONValue(parsing: Data(await connection.readResponse().body ?? []))
            #expect(second["entries"]?.arrayValue?.compactMap { $0["target"]?.stringValue } == ["/api/v1/announcements?n=1"])
            #expect(second["next"] == .null)
            let sequence = try #require(second["entries"]?.arrayValue?.first?["sequence"]?.intValue)
            try await connection.send(rawRequest("GET", "/__spotcheck/journal/\(sequence)"))
            let entry = try JSONValue(parsing: Data(await connection.readResponse().body ?? []))
            #expect(entry["requestBody"]?["size"] == 1000)
        }
    }
}
