import ContractKit
import NIOCore

extension AnnouncementStore {
    /// One stored announcement as the admin API shows it: the API's JSON plus what the API never shows.
    public struct StoredAnnouncement: Sendable {
        /// The announcement's id.
        public let id: String
        /// The announcement as the API answers it.
        public let json: JSONValue
        /// Its management password.
        public let managementPassword: String
        /// The stored photo's content type, nil without a photo.
        public let photoType: String?
        /// The stored photo's size in bytes, 0 without a photo.
        public let photoBytes: Int
    }

    /// The newest `limit` stored announcements, newest first, and how many are stored in all.
    ///
    /// Only the announcements shown are parsed back from their JSON: the store may hold 20,000.
    public func snapshot(limit: Int = .max) -> (count: Int, newest: [StoredAnnouncement]) {
        let records = state.withLock { s in s.records.map { ($0.key, $0.value) } }
        let newest = records.sorted { $0.1.sequence > $1.1.sequence }.prefix(limit).map { id, record in
            StoredAnnouncement(
                id: id, json: (try? JSONValue(parsing: Array(record.json.readableBytesView))) ?? .null,
                managementPassword: record.password, photoType: record.photo?.type.contentType,
                photoBytes: record.photo?.bytes.readableBytes ?? 0)
        }
        return (records.count, newest)
    }

    /// The photo of an announcement, by id.
    public func photo(id: String) -> Photo? {
        state.withLock { $0.records[id]?.photo }
    }

    /// Adds fixtures to the live store, replacing announcements with the same id; they are never evicted.
    public func load(_ fixtures: [PetSpotFixture]) {
        state.withLock { s in
            for fixture in fixtures {
                let record = Record(announcement: fixture.announcement, password: fixture.managementPassword)
                s.remove(fixture.announcement.id)
                s.insert(record, id: fixture.announcement.id)
                persistence?.record(.put(id: fixture.announcement.id, json: record.json, password: record.password, created: false))
                if let photo = fixture.photo {
                    s.records[fixture.announcement.id]?.photo = photo
                    s.list(fixture.announcement.id, sequence: s.records[fixture.announcement.id]?.sequence ?? 0)
                    persistence?.record(.photo(id: fixture.announcement.id, photo: photo, json: record.json))
                }
            }
        }
    }

    /// Returns once every change made so far is safe on disk; at once for an in-memory store.
    public func waitUntilDurable() async throws(StoreDataDirectoryError) {
        try await persistence?.waitUntilDurable()
    }
}
