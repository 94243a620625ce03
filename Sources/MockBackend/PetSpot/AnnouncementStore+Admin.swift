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
    public func snapshot(limit: Int = .max) -> (count: Int, newest: [StoredAnnouncement]) {
        let (count, newest, _) = page(StatePageRequest(limit: limit, maxBytes: StatePageRequest.maxMaxBytes))
        return (count, newest)
    }

    /// One page of the stored announcements, newest first: below `request.cursor`, at most `request.limit` of them and
    /// about `request.maxBytes` of JSON (at least one); `next` is the cursor of the following page, nil after the last.
    ///
    /// Only the announcements on the page are parsed back from their JSON: the store may hold 20,000 of 100 KB.
    public func page(_ request: StatePageRequest) -> (count: Int, newest: [StoredAnnouncement], next: Int?) {
        let (count, candidates) = state.withLock { s in
            (s.records.count, s.records.filter { entry in request.cursor.map { entry.value.sequence < $0 } ?? true })
        }
        var newest: [StoredAnnouncement] = []
        var bytes = 0
        var last: Int?
        for (id, record) in candidates.sorted(by: { $0.value.sequence > $1.value.sequence }) {
            let size = record.json.readableBytes + record.password.utf8.count + id.utf8.count + Self.pageEntryOverhead
            if newest.count == request.limit || (!newest.isEmpty && bytes + size > request.maxBytes) {
                // Something is left: the next page starts below the last one shown.
                return (count, newest, last)
            }
            bytes += size
            last = record.sequence
            newest.append(StoredAnnouncement(
                id: id, json: (try? JSONValue(parsing: Array(record.json.readableBytesView))) ?? .null,
                managementPassword: record.password, photoType: record.photo?.type.contentType,
                photoBytes: record.photo?.bytes.readableBytes ?? 0))
        }
        return (count, newest, nil)
    }

    /// What a page entry adds around the announcement's JSON: the keys, the photo object, the punctuation.
    static let pageEntryOverhead = 200

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
