import ContractKit
import Foundation
import Testing

@testable import ContractModel
@testable import MockBackend

/// `GET /__spotcheck/state` pages: a count and a byte budget per page, a cursor to the next, over a real mock.
@Suite struct StatePagingTests {
    private let admin = ["X-SpotCheck-Admin-Token": "admin-secret"]

    private func ids(_ answer: HTTPAnswer) -> [String] {
        answer.json?["records"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    }

    @Test func pagesWalkEveryAnnouncementNewestFirstWithoutRepeats() async throws {
        try await withPetSpotMock { mock in
            let http = PetSpotHTTP(mock)
            var created: [String] = []
            for _ in 0..<7 { created.append(try await http.create(BundledContractsTestSupport.createBody([("microchipNumber", nil)])).id) }
            var seen: [String] = []
            var path = "/__spotcheck/state?limit=3"
            var pages = 0
            while true {
                let page = try await http.get(path, headers: admin)
                #expect(page.status == 200)
                #expect(page.json?["count"] == 7)
                seen += ids(page)
                pages += 1
                guard let next = page.json?["next"]?.intValue else {
                    #expect(page.json?["next"] == .null)
                    break
                }
                path = "/__spotcheck/state?limit=3&cursor=\(next)"
                if pages > 10 { break }
            }
            #expect(pages == 3)
            #expect(seen == created.reversed())
        }
    }

    @Test func aPageStopsAtItsByteBudgetButAlwaysHoldsOne() async throws {
        try await withPetSpotMock { mock in
            let http = PetSpotHTTP(mock)
            let big = String(repeating: "d", count: 50_000)
            for _ in 0..<4 {
                _ = try await http.create(BundledContractsTestSupport.createBody([("microchipNumber", nil), ("description", .string(big))]))
            }
            // 120 KB holds two 50 KB announcements, not three.
            let page = try await http.get("/__spotcheck/state?maxBytes=120000", headers: admin)
            #expect(ids(page).count == 2)
            #expect(page.body.count < 120_000 + 4096)
            #expect(page.json?["next"]?.intValue != nil)
            // A budget smaller than one announcement still shows one, so paging moves on.
            let tiny = try await http.get("/__spotcheck/state?maxBytes=1", headers: admin)
            #expect(ids(tiny).count == 1)
            // The default budget keeps a page of 1,000 large announcements small: here all four fit in it.
            let all = try await http.get("/__spotcheck/state", headers: admin)
            #expect(ids(all).count == 4)
            #expect(all.json?["next"] == .null)
        }
    }

    @Test func theBudgetIsClampedAndTheStoreSideAgrees() throws {
        #expect(StatePageRequest(maxBytes: .max).maxBytes == StatePageRequest.maxMaxBytes)
        #expect(StatePageRequest(limit: -4).limit == 0)
        let request = StatePageRequest(query: "limit=5&maxBytes=1000&cursor=12")
        #expect(request == StatePageRequest(limit: 5, maxBytes: 1000, cursor: 12))
        let store = RecordStore(seed: 1)
        #expect(store.page(StatePageRequest()).newest.isEmpty)
        #expect(store.page(StatePageRequest()).next == nil)
    }
}
