import ContractKit
import Foundation
import NIOCore
import Testing

@testable import ContractModel
@testable import MockBackend

/// A store bounded in bytes drops the oldest announcements created through the API, keeps fixtures and the newest,
/// and counts what its buffers really hold.
@Suite struct RecordStoreByteBoundTests {
    typealias S = BundledContractsTestSupport

    func announcement(_ id: String, description: String) -> Announcement {
        Announcement(id: id, petName: nil, species: "DOG", breed: nil, sex: "MALE", age: nil, description: description, microchipNumber: nil,
                     locationLatitude: 1, locationLongitude: 2, lastSeenDate: "2025-11-18", email: "a@b.co", phone: nil, photoUrl: nil,
                     status: "MISSING", reward: nil, createdAt: "2025-11-20T12:00:00.000Z", updatedAt: "2025-11-20T12:00:00.000Z")
    }

    func create(_ store: RecordStore, size: Int) throws -> String {
        let text = String(repeating: "d", count: size)
        return try #require(store.create(microchipNumber: nil, make: { announcement($0, description: text) })).id
    }

    @Test func theOldestCreatedGoFirstUntilTheRecordsFit() throws {
        let store = RecordStore(seed: 1, maxBytes: 500_000)
        let ids = try (0..<10).map { _ in try create(store, size: 100_000) }
        #expect(store.bytes <= 500_000)
        #expect(store.count >= 3)
        #expect(store.evictedCount == 10 - store.count)
        // The newest survive, in order; the oldest are gone.
        for id in ids.suffix(store.count) { #expect(store.primaryRecordJSON(id: id) != nil) }
        for id in ids.prefix(10 - store.count) { #expect(store.primaryRecordJSON(id: id) == nil) }
    }

    @Test func theCountIncludesWhatTheBuffersReallyHold() throws {
        let store = RecordStore(seed: 1)
        #expect(store.bytes == 0)
        let id = try create(store, size: 100_000)
        let json = try #require(store.primaryRecordJSON(id: id))
        // At least the JSON's whole storage, which is what a 100 KB announcement keeps alive.
        #expect(store.bytes >= json.capacity)
        #expect(store.bytes < json.capacity + 2048)
        #expect(store.setPhoto(id: id, bytes: [UInt8](repeating: 1, count: 70_000), type: .png, updatedAt: "2025-11-20T12:00:01.000Z"))
        #expect(store.bytes >= json.capacity + 70_000)
        #expect(store.delete(id: id))
        #expect(store.bytes == 0)
    }

    @Test func theNewestCreateStaysEvenWhenItAloneIsOverTheBound() throws {
        let store = RecordStore(seed: 1, maxBytes: 10_000)
        let a = try create(store, size: 50_000)
        let b = try create(store, size: 50_000)
        #expect(store.primaryRecordJSON(id: a) == nil)
        #expect(store.primaryRecordJSON(id: b) != nil)
        #expect(store.count == 1)
    }

    @Test func fixturesStayAndAResetStartsTheCountAgain() throws {
        let fixtures = try RecordFixture.load(from: RecordFixture.bundledFile)
        let store = RecordStore(seed: 1, fixtures: fixtures, maxBytes: 1)
        // This store's own count at its start: another store's fixtures may sit in allocations malloc rounded
        // differently (an array's capacity is malloc's usable size), and the suite failed on 32 bytes of that.
        let atStart = store.bytes
        for _ in 0..<3 { _ = try create(store, size: 1_000) }
        #expect(store.count == fixtures.count + 1)
        for fixture in fixtures { #expect(store.primaryRecordJSON(id: fixture.announcementID) != nil) }
        #expect(store.bytes != atStart, "the create is counted")
        store.reset()
        #expect(store.bytes == atStart)
    }

    @Test func aPhotoThatTipsTheBoundEvictsOthersNotItsOwnAnnouncement() throws {
        let store = RecordStore(seed: 1, maxBytes: 400_000)
        let first = try create(store, size: 100_000)
        let second = try create(store, size: 100_000)
        #expect(store.setPhoto(id: first, bytes: [UInt8](repeating: 1, count: 250_000), type: .png, updatedAt: "2025-11-20T12:00:01.000Z"))
        // `first` is the oldest, but it just got its photo (a 201): it stays, and the store stays over until the next create.
        #expect(store.primaryRecordJSON(id: first) != nil)
        let third = try create(store, size: 100_000)
        #expect(store.primaryRecordJSON(id: third) != nil)
        #expect(store.bytes <= 400_000)
        #expect(store.primaryRecordJSON(id: first) == nil || store.primaryRecordJSON(id: second) == nil)
    }

    @Test func overHTTPTheOldestAnswer404AndTheStateSaysSo() async throws {
        var options = ContractMock.Options(contracts: try S.loadedContracts(), seed: 3, adminToken: "admin-secret", quiet: true)
        options.storeMaxBytes = 600_000
        options.idleTimeout = patientIdleTimeout
        let mock = try await ContractMock.start(options)
        do {
            let http = PetSpotHTTP(mock)
            let big = String(repeating: "d", count: 90_000)
            var ids: [String] = []
            for _ in 0..<12 {
                ids.append(try await http.create(S.createBody([("microchipNumber", nil), ("description", .string(big))])).id)
            }
            #expect(try await http.get("/api/v1/announcements/\(ids[0])").status == 404)
            #expect(try await http.get("/api/v1/announcements/\(ids[11])").status == 200)
            #expect(mock.backend.store.bytes <= 600_000)
            let state = try await http.get("/__spotcheck/state", headers: ["X-SpotCheck-Admin-Token": "admin-secret"])
            #expect(state.json?["count"]?.intValue == mock.backend.store.count)
            try await mock.shutdown()
        } catch {
            try? await mock.shutdown()
            throw error
        }
    }
}
