import ContractKit

extension RecordStore {
    /// One stored record as the admin API shows it: the API's JSON plus what the API never shows.
    public struct StoredRecord: Sendable {
        /// The record's key.
        public let id: String
        /// The record as the API answers it.
        public let json: JSONValue
        /// The declared secret's name and value, nil when the collection keeps none.
        public let secret: (name: String, value: String)?
        /// The stored file's content type, nil without one.
        public let photoType: String?
        /// The stored file's size in bytes, 0 without one.
        public let photoBytes: Int
    }

    /// The name and record count of every collection, in declared order.
    public var collectionCounts: [(name: String, count: Int)] {
        state.withLock { s in layouts.map { ($0.name, s.tables[$0.index].records.count) } }
    }

    /// The newest `limit` stored records of `collection` (nil: the primary one), newest first, and how many it holds.
    public func snapshot(collection: String? = nil, limit: Int = .max) -> (count: Int, newest: [StoredRecord]) {
        let (count, newest, _) = page(limit: limit, maxBytes: .max, cursor: nil, collection: collection)
        return (count, newest)
    }

    /// One page of the stored records of `collection` (nil: the primary one), newest first: below `cursor`, at most
    /// `limit` of them and about `maxBytes` of JSON (at least one); `next` is the cursor of the following page, nil after
    /// the last. An unknown collection has no records.
    ///
    /// Only the records on the page are parsed back from their JSON: the store may hold 20,000 of 100 KB.
    public func page(limit: Int, maxBytes: Int, cursor: Int?, collection: String? = nil) -> (count: Int, newest: [StoredRecord], next: Int?) {
        guard let layout = layout(named: collection) else { return (0, [], nil) }
        let (count, candidates) = state.withLock { s in
            let table = s.tables[layout.index]
            return (table.records.count, table.records.filter { entry in cursor.map { entry.value.sequence < $0 } ?? true })
        }
        var newest: [StoredRecord] = []
        var bytes = 0
        var last: Int?
        for (id, record) in candidates.sorted(by: { $0.value.sequence > $1.value.sequence }) {
            let size = record.json.count + record.secret.utf8.count + id.utf8.count + Self.pageEntryOverhead
            if newest.count == limit || (!newest.isEmpty && bytes + size > maxBytes) {
                // Something is left: the next page starts below the last one shown.
                return (count, newest, last)
            }
            bytes += size
            last = record.sequence
            newest.append(StoredRecord(
                id: id, json: (try? JSONValue(parsing: Array(record.json))) ?? .null,
                secret: layout.secretField.map { ($0, record.secret) }, photoType: record.photo?.type.contentType,
                photoBytes: record.photo?.bytes.count ?? 0))
        }
        return (count, newest, nil)
    }

    /// What a page entry adds around the record's JSON: the keys, the photo object, the punctuation.
    static let pageEntryOverhead = 200

    /// The file of a record of `collection` (nil: the primary one), by key.
    public func photo(collection: String? = nil, id: String) -> Photo? {
        guard let layout = layout(named: collection) else { return nil }
        return state.withLock { $0.tables[layout.index].records[id]?.photo }
    }

    /// Deletes a record of `collection` (nil: the primary one); false when there was none (or no such collection).
    public func delete(collection: String?, id: String) -> Bool {
        guard let layout = layout(named: collection) else { return false }
        return delete(in: layout.index, id: id)
    }

    /// Adds fixtures to the live store, replacing records with the same key; they are never evicted. Fixtures of a
    /// collection the store does not have are skipped (parsing against the contracts refuses them first).
    public func load(_ fixtures: [RecordFixture]) {
        state.withLock { s in
            for fixture in fixtures {
                guard let layout = layout(named: fixture.collection) else { continue }
                let (id, record) = fixture.record(layout: layout)
                s.tables[layout.index].remove(id)
                s.insert(record, id: id, in: layout.index)
                persistence?.record(.put(collection: layout.name, id: id, json: record.json, secret: record.secret, created: false))
                if let photo = record.photo {
                    persistence?.record(.photo(collection: layout.name, id: id, photo: photo, json: record.json))
                }
            }
        }
    }

    /// Returns once every change made so far is safe on disk; at once for an in-memory store.
    public func waitUntilDurable() async throws(StoreDataDirectoryError) {
        try await persistence?.waitUntilDurable()
    }
}
