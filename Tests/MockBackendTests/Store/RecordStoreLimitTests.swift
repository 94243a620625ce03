import Foundation
import NIOCore
import Testing

@testable import ContractModel
@testable import MockBackend

/// A store with a limit keeps the newest announcements created through the API, and never drops fixtures.
@Suite struct RecordStoreLimitTests {
    typealias S = BundledContractsTestSupport

    func announcement(_ id: String, chip: String? = nil) -> Announcement {
        Announcement(id: id, petName: nil, species: "DOG", breed: nil, sex: "MALE", age: nil, description: nil, microchipNumber: chip,
                     locationLatitude: 1, locationLongitude: 2, lastSeenDate: "2025-11-18", email: "a@b.co", phone: nil, photoUrl: nil,
                     status: "MISSING", reward: nil, createdAt: "2025-11-20T12:00:00.000Z", updatedAt: "2025-11-20T12:00:00.000Z")
    }

    func create(_ store: RecordStore, chip: String? = nil) throws -> String {
        try #require(store.create(microchipNumber: chip, make: { announcement($0, chip: chip) })).id
    }

    @Test func theOldestCreatedGoFirstAndTheirMicrochipsAreFreed() throws {
        let store = RecordStore(seed: 1, limit: 3)
        let first = try create(store, chip: "111")
        let others = try (0..<3).map { _ in try create(store) }
        #expect(store.count == 3)
        #expect(store.evictedCount == 1)
        #expect(store.primaryRecordJSON(id: first) == nil)
        for id in others { #expect(store.primaryRecordJSON(id: id) != nil) }
        // The evicted announcement's microchip number is free again.
        #expect(store.create(microchipNumber: "111", make: { announcement($0, chip: "111") }) != nil)
    }

    @Test func deletedAnnouncementsDoNotCountAndFixturesStay() throws {
        let fixtures = try RecordFixture.load(from: RecordFixture.bundledFile)
        let store = RecordStore(seed: 1, fixtures: fixtures, limit: 2)
        let a = try create(store)
        let b = try create(store)
        #expect(store.delete(id: a))
        let c = try create(store)
        #expect(store.evictedCount == 0)
        #expect(store.primaryRecordJSON(id: b) != nil && store.primaryRecordJSON(id: c) != nil)
        for _ in 0..<5 { _ = try create(store) }
        #expect(store.count == fixtures.count + 2)
        for fixture in fixtures { #expect(store.primaryRecordJSON(id: fixture.announcementID) != nil) }
    }

    @Test func anEvictedListedAnnouncementLeavesTheList() throws {
        let store = RecordStore(seed: 1, limit: 2)
        let first = try create(store)
        #expect(store.setPhoto(id: first, bytes: S.png, type: .png, updatedAt: "2025-11-20T12:00:01.000Z"))
        #expect(store.listedRecords().count == 1)
        _ = try create(store)
        let third = try create(store)
        #expect(store.setPhoto(id: third, bytes: S.png, type: .png, updatedAt: "2025-11-20T12:00:02.000Z"))
        #expect(store.listedRecords().map(\.sequence) == [2])
        #expect(store.photo(fileName: "\(first).png") == nil)
    }

    @Test func withoutALimitNothingIsEvicted() throws {
        let store = RecordStore(seed: 1)
        for _ in 0..<50 { _ = try create(store) }
        #expect(store.count == 50)
        #expect(store.evictedCount == 0)
    }
}
