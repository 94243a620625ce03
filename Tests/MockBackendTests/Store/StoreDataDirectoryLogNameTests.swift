import Foundation
import Testing

@testable import ContractModel
@testable import MockBackend

/// The data directory's log is named after the collection it is opened for, the marker records the name, and a
/// directory written before (its log `announcements.log`, its marker naming none) is read on and moves to the
/// collection's name at its next compaction: no data is lost.
@Suite struct StoreDataDirectoryLogNameTests {
    typealias T = StoreDataDirectoryTestSupport

    private func files(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test func theLogIsNamedAfterTheCollectionAndTheMarkerRecordsIt() async throws {
        let directory = T.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let persistence = try StoreDataDirectory.open(directory, collection: "parcels")
        let store = RecordStore(seed: 1, persistence: persistence)
        let id = try #require(await T.create(store).id)
        let live = T.contents(store)
        persistence.close()
        #expect(try files(directory) == ["parcels.log", "photos", StoreDataDirectory.markerName].sorted())
        let marker = try String(contentsOf: directory.appendingPathComponent(StoreDataDirectory.markerName), encoding: .utf8)
        #expect(marker.contains(#""log":"parcels""#))
        // Opened naming no collection, the marker still finds the log; a compaction keeps its name.
        let reopened = try StoreDataDirectory.open(directory)
        let restored = RecordStore(seed: 1, persistence: reopened)
        #expect(T.contents(restored) == live)
        #expect(T.contents(restored)[id] != nil)
        #expect(reopened.writer.sync { reopened.compactNow() })
        reopened.close()
        #expect(try files(directory) == ["parcels.1.log", "photos", "snapshot.1.log", StoreDataDirectory.markerName].sorted())
    }

    @Test func anEarlierDirectorysAnnouncementsLogIsReadAndMovesAtTheNextCompaction() async throws {
        let directory = T.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Written, then made into what every spotcheck before wrote: `announcements.log`, a marker naming no log.
        let persistence = try StoreDataDirectory.open(directory)
        let store = RecordStore(seed: 1, persistence: persistence)
        let id = try #require(await T.create(store, name: "Old").id)
        #expect(await T.upload(store, id: id))
        let live = T.contents(store)
        persistence.close()
        try FileManager.default.moveItem(at: directory.appendingPathComponent(StoreDataDirectory.logName),
                                         to: directory.appendingPathComponent(StoreDataDirectory.legacyLogName))
        try Data(#"{"format":"spotcheck-mock-store","version":3,"generation":0}"#.utf8 + [10])
            .write(to: directory.appendingPathComponent(StoreDataDirectory.markerName))
        #expect(try files(directory) == ["announcements.log", "photos", StoreDataDirectory.markerName].sorted())

        let reopened = try StoreDataDirectory.open(directory, collection: "parcels")
        let restored = RecordStore(seed: 1, persistence: reopened)
        #expect(T.contents(restored) == live)
        // A change before the compaction still goes to the log the directory has.
        let second = try #require(await T.create(restored, name: "New").id)
        let both = T.contents(restored)
        #expect(try files(directory) == ["announcements.log", "photos", StoreDataDirectory.markerName].sorted())
        #expect(reopened.writer.sync { reopened.compactNow() })
        reopened.close()
        #expect(try files(directory) == ["parcels.1.log", "photos", "snapshot.1.log", StoreDataDirectory.markerName].sorted())
        let last = try StoreDataDirectory.open(directory, collection: "parcels")
        #expect(T.contents(RecordStore(seed: 1, persistence: last)) == both)
        #expect(both[second] != nil && both[id] != nil)
        last.close()
    }

    @Test func aMarkerNamingAnUnusableLogIsRefused() throws {
        let directory = T.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try StoreDataDirectory.open(directory, collection: "parcels").close()
        try Data(#"{"format":"spotcheck-mock-store","version":3,"generation":0,"log":"../x"}"#.utf8 + [10])
            .write(to: directory.appendingPathComponent(StoreDataDirectory.markerName))
        #expect(throws: StoreDataDirectoryError.self) { _ = try StoreDataDirectory.open(directory) }
    }

    @Test func theStemKeepsOnlyASafeFileName() {
        #expect(StoreDataDirectory.logStem(for: "parcels") == "parcels")
        #expect(StoreDataDirectory.logStem(for: "../etc/x y") == "etcxy")
        #expect(StoreDataDirectory.logStem(for: "snapshot") == StoreDataDirectory.defaultLogStem)
        #expect(StoreDataDirectory.logStem(for: nil) == StoreDataDirectory.defaultLogStem)
    }
}
