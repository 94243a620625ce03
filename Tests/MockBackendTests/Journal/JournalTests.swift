import Foundation
import Testing
@testable import ContractModel
@testable import MockBackend

@Suite struct JournalTests {
    private func entry(_ path: String) -> JournalEntry {
        JournalEntry(time: Date(timeIntervalSince1970: 1_700_000_000.123), method: "GET", path: path, contract: nil,
                     status: 200, authUser: nil, rule: nil, fault: nil, durationMs: 1)
    }

    @Test func keepsTheNewestEntriesUpToTheLimit() {
        let journal = Journal(limit: 3)
        for i in 1...5 { journal.record(entry("/\(i)")) }
        #expect(journal.entries().map(\.path) == ["/3", "/4", "/5"])
        #expect(journal.entries().map(\.sequence) == [3, 4, 5])
    }

    @Test func clearKeepsSequenceNumbersGoing() {
        let journal = Journal(limit: 10)
        journal.record(entry("/a"))
        journal.clear()
        #expect(journal.entries().isEmpty)
        journal.record(entry("/b"))
        #expect(journal.entries().map(\.sequence) == [2])
    }

    @Test func encodesEveryKeyAndRoundTrips() throws {
        let original = entry("/x")
        let data = try JSONEncoder().encode(original)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""time":"2023-11-14T22:13:20.123Z""#))
        #expect(text.contains(#""fault":null"#))
        let decoded = try JSONDecoder().decode(JournalEntry.self, from: data)
        #expect(decoded == original)
    }

    @Test func basicAuthUserIsDecodedOrNil() {
        #expect(basicAuthUser("Basic " + Data("id-1:pw".utf8).base64EncodedString()) == "id-1")
        #expect(basicAuthUser("basic " + Data("u:".utf8).base64EncodedString()) == "u")
        #expect(basicAuthUser("Basic !!!notbase64") == nil)
        #expect(basicAuthUser("Bearer abc") == nil)
        #expect(basicAuthUser(nil) == nil)
    }
}
