import ContractKit
import Foundation
import Testing
@testable import ContractModel
@testable import MockBackend

/// The live journal stream: bounded per-subscriber buffers that drop and count, and the SSE route on top of them.
@Suite struct JournalStreamTests {
    private func entry(_ path: String) -> JournalEntry {
        JournalEntry(time: Date(), method: "GET", path: path, contract: nil, status: 200, authUser: nil, rule: nil, fault: nil, durationMs: 0)
    }

    @Test func aFullBufferDropsAndCountsInsteadOfWaiting() {
        let journal = Journal(limit: 100)
        let wakes = Calls()
        let subscription = journal.stream.subscribe(capacity: 3) { wakes.increment() }
        for i in 1...10 { journal.record(entry("/\(i)")) }
        // One wake per empty-to-non-empty change, however many entries arrive before the reader drains.
        #expect(wakes.value == 1)
        let (frames, dropped) = subscription.drain()
        #expect(frames.map(\.sequence) == [1, 2, 3])
        #expect(dropped == 7)
        journal.record(entry("/11"))
        #expect(wakes.value == 2)
        #expect(subscription.drain().frames.map(\.sequence) == [11])
    }

    @Test func aReaderIsCappedInBytesAndGetsNoBodies() {
        let journal = Journal(limit: 100)
        let subscription = journal.stream.subscribe(capacity: 10_000, byteCapacity: 4096) { }
        let body = CapturedBody(size: 100_000, bytes: Array(repeating: UInt8(ascii: "x"), count: 64 * 1024))
        for i in 1...200 {
            var big = entry("/big/\(i)")
            big.requestBody = body
            big.responseBody = body
            journal.record(big)
        }
        // Far under the entry cap, yet the byte cap stops the buffer: summaries without bodies, a few hundred bytes each.
        #expect(subscription.bufferedBytes <= 4096)
        let (frames, dropped) = subscription.drain()
        #expect(!frames.isEmpty)
        #expect(frames.count + dropped == 200)
        #expect(dropped > 0)
        let text = String(decoding: frames.flatMap(\.bytes), as: UTF8.self)
        #expect(!text.contains("xxxx"))
        #expect(text.contains(#""requestBytes":100000"#))
        #expect(frames.reduce(0) { $0 + $1.bytes.count } <= 4096)
    }

    @Test func cancelledSubscribersStopReceiving() {
        let journal = Journal()
        let subscription = journal.stream.subscribe { }
        #expect(journal.stream.subscriberCount == 1)
        subscription.cancel()
        #expect(journal.stream.subscriberCount == 0)
        journal.record(entry("/after"))
        #expect(subscription.drain().frames.isEmpty)
    }

    @Test func summariesMarkFailures() {
        var failed = entry("/x")
        failed.status = nil
        failed.fault = "stall"
        #expect(JournalEntrySummary(failed).failure)
        #expect(!JournalEntrySummary(entry("/ok")).failure)
        var known = entry("/known")
        known.violations = [ExchangeViolation(contract: nil, pointer: "/a", expected: "x", got: "y", side: .server, knownDefect: "D1")]
        #expect(!JournalEntrySummary(known).failure)
    }

    @Test func eventsArriveOverServerSentEventsWithBacklog() async throws {
        try await withServer { _, address in
            let client = try await RawConnection.connect(port: address.port)
            defer { client.close() }
            try await client.send(rawRequest("GET", "/api/v1/announcements/before?x=1"))
            _ = await client.readResponse()

            let events = try await RawConnection.connect(port: address.port)
            defer { events.close() }
            try await events.send(rawRequest("GET", "/__spotcheck/events"))
            var seen = await events.read(window: .seconds(2)).text
            #expect(seen.lowercased().contains("content-type: text/event-stream"))
            #expect(seen.contains(#""target":"\/api\/v1\/announcements\/before?x=1""#))

            try await client.send(rawRequest("GET", "/api/v1/announcements/after"))
            _ = await client.readResponse()
            for _ in 0..<50 where !seen.contains("announcements\\/after") {
                seen += await events.read(window: .milliseconds(200)).text
            }
            #expect(seen.contains("id: 2\nevent: entry\ndata: "))
            #expect(seen.contains(#""contract":"getAnnouncement""#))
        }
    }

    @Test func sinceSkipsWhatTheReaderAlreadyHas() async throws {
        try await withServer { _, address in
            let client = try await RawConnection.connect(port: address.port)
            defer { client.close() }
            for path in ["/one", "/two", "/three"] {
                try await client.send(rawRequest("GET", path))
                _ = await client.readResponse()
            }
            let events = try await RawConnection.connect(port: address.port)
            defer { events.close() }
            try await events.send(rawRequest("GET", "/__spotcheck/events?since=2"))
            let seen = await events.read(window: .seconds(2)).text
            #expect(!seen.contains("id: 1\n"))
            #expect(!seen.contains("id: 2\n"))
            #expect(seen.contains("id: 3\n"))
        }
    }

    @Test func theBacklogFitsTheReadersByteCap() async throws {
        try await withServer { server, address in
            // 50 entries with 2 KB targets: about 2.3 KB of summary each, ten times the 4 KiB asked for.
            let padding = String(repeating: "p", count: 2000)
            for i in 1...50 {
                server.journal.record(JournalEntry(time: Date(), method: "GET", path: "/\(i)", contract: nil, status: 200, authUser: nil,
                                                   rule: nil, fault: nil, durationMs: 0, query: "pad=\(padding)"))
            }
            let events = try await RawConnection.connect(port: address.port)
            defer { events.close() }
            try await events.send(rawRequest("GET", "/__spotcheck/events?backlog=1000&bufferBytes=4096"))
            let seen = await events.read(window: .seconds(2))
            let body = try #require(seen.body)
            // The newest entries that fit, and a count of the rest; the head and `retry` line aside, within the cap.
            #expect(seen.text.contains("id: 50\n"))
            #expect(!seen.text.contains("id: 40\n"))
            #expect(seen.text.contains("event: dropped"))
            #expect(body.count < 4096 + 200)
        }
    }

    @Test func theStreamFollowsTheTokenRules() async throws {
        try await withServer(configuration: ServerConfiguration(adminToken: "t", idleTimeout: patientIdleTimeout, quiet: true)) { _, address in
            let events = try await RawConnection.connect(port: address.port)
            defer { events.close() }
            try await events.send(rawRequest("GET", "/__spotcheck/events"))
            #expect(await events.readResponse().status == 401)
        }
    }
}
