import ContractKit
import Foundation
import NIOCore
import Testing
@testable import ContractModel
@testable import MockBackend

/// The admin routes that change state behind the traffic tell the observer which announcements they touched.
@Suite struct AdminStateChangeNoticeTests {
    final class Spy: ExchangeObserver, @unchecked Sendable {
        var forgotten: [[String]?] = []
        func inspect(_ entry: JournalEntry, requestBody: ByteBuffer, parsedRequestBody: JSONValue?, responseBody: ByteBuffer?) -> [ExchangeViolation] { [] }
        func recorded(_ entry: JournalEntry) {}
        func backendForgot(ids: [String]?) { forgotten.append(ids) }
    }

    @Test func resetDeleteAndFixturesAreReported() async throws {
        let backend = try ModelBackend(configuration: .init(contracts: try BundledContractsTestSupport.loadedContracts(), checkResponses: false))
        let spy = Spy()
        let api = AdminAPI(journal: Journal(), faults: FaultLayer(), hooks: ModelAdminHooks(store: backend.store, collections: try BundledContractsTestSupport.loadedContracts().state.collections), token: nil, loopback: true, observer: spy)
        let id = "0f8a2b6c-1d3e-4f50-8a61-b7c8d9e0f101"
        let fixtures = #"{"announcements": [{"id": "\#(id)", "species": "DOG", "sex": "MALE", "locationLatitude": 1, "locationLongitude": 2, "lastSeenDate": "2025-11-18", "status": "MISSING", "phone": "123456789", "managementPassword": "123456"}]}"#
        let loaded = await api.handle(MockRequest(method: .POST, uri: "/__spotcheck/state/fixtures", headers: ["content-type": "application/json"], body: ByteBuffer(string: fixtures)))
        #expect(loaded.status == .ok, "\(String(buffer: loaded.body))")
        #expect(await api.handle(MockRequest(method: .DELETE, uri: "/__spotcheck/state/announcements/\(id)")).status == .noContent)
        #expect(await api.handle(MockRequest(method: .POST, uri: "/__spotcheck/reset")).status == .noContent)
        #expect(spy.forgotten == [[id], [id], nil])
    }
}

