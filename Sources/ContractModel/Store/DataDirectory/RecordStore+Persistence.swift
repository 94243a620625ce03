import ContractKit

extension RecordStore.Record {
    /// A record from the JSON the store rendered earlier (read back from a data directory); nil when it is not an object.
    init?(json: [UInt8], secret: String, photo: RecordStore.Photo? = nil, layout: RecordLayout) {
        guard let value = try? JSONValue(parsing: Array(json)), let object = value.objectValue else { return nil }
        self.init(json: json, secret: secret, photo: photo, derived: layout.derived(object: object))
    }
}

extension RecordStore {
    /// What replaying and snapshotting need of the store besides its state: its collections, fixtures and limit.
    struct Shape {
        let layouts: [RecordLayout]
        let primary: Int
        let initial: [(collection: Int, id: String, record: RecordStore.Record)]
        let limit: Int?

        /// The layout of the collection named `name` (nil name: the primary collection, as earlier versions wrote).
        func layout(named name: String?) -> RecordLayout? {
            guard let name else { return layouts.isEmpty ? nil : layouts[primary] }
            return layouts.first { $0.name == name }
        }
    }

    var shape: Shape { Shape(layouts: layouts, primary: primary, initial: initial, limit: limit) }
}

extension RecordStore.State {
    /// Replays one logged change exactly as the live store made it, eviction under the store's limit included.
    mutating func apply(_ change: StoreChange, store: RecordStore.Shape) {
        switch change {
        case .put(let collection, let id, let json, let secret, let created):
            guard let layout = store.layout(named: collection),
                let record = RecordStore.Record(json: json, secret: secret, layout: layout)
            else { return }
            tables[layout.index].remove(id)
            insert(record, id: id, in: layout.index)
            // The live store tracks what the API created whenever a bound (count or bytes) may evict it.
            if created, store.limit != nil || maxBytes != nil {
                self.created.append((layout.index, nextSequence - 1, id))
                evict(toKeep: store.limit)
            }
        case .photo(let collection, let id, let photo, let json):
            guard let layout = store.layout(named: collection), var record = tables[layout.index].records[id],
                let value = try? JSONValue(parsing: Array(json)), let object = value.objectValue
            else { return }
            record.photo = photo
            record.json = json
            record.derived = layout.derived(object: object)
            tables[layout.index].records[id] = record
            tables[layout.index].relist(id, record: record)
        case .delete(let collection, let id):
            guard let layout = store.layout(named: collection) else { return }
            tables[layout.index].remove(id)
        case .reset:
            let bound = maxBytes
            self = Self.start(random: random, collections: tables.count, initial: store.initial)
            maxBytes = bound
        case .clear:
            let bound = maxBytes
            self = Self(random: random, collections: tables.count)
            maxBytes = bound
        }
    }

    /// The state as a snapshot: `.clear`, then every record of every collection in creation order as a `put` (and a `photo`).
    func snapshotChanges(store: RecordStore.Shape) -> [StoreChange] {
        // Under a bound, `created` says which records the API made (and so can be evicted); without one it is not
        // kept, and every record but the start fixtures counts as created.
        let created: Set<Int>? = store.limit == nil && maxBytes == nil ? nil : Set(self.created[createdHead...].map(\.sequence))
        let initialKeys = Set(store.initial.map { "\($0.collection)/\($0.id)" })
        var all: [(collection: Int, id: String, record: RecordStore.Record)] = []
        for (c, table) in tables.enumerated() { for (id, record) in table.records { all.append((c, id, record)) } }
        var changes: [StoreChange] = [.clear]
        changes.reserveCapacity(all.count * 2 + 1)
        for (c, id, record) in all.sorted(by: { $0.record.sequence < $1.record.sequence }) {
            let name = store.layouts[c].name
            let isCreated = created.map { $0.contains(record.sequence) } ?? !initialKeys.contains("\(c)/\(id)")
            changes.append(.put(collection: name, id: id, json: record.json, secret: record.secret, created: isCreated))
            if let photo = record.photo { changes.append(.photo(collection: name, id: id, photo: photo, json: record.json)) }
        }
        return changes
    }
}

extension RecordStore: StoreDataDirectoryOwner {
    func withStateFrozen<T>(_ body: () -> T) -> (live: [StoreChange], result: T) {
        // Copying the state is cheap (copy on write); the snapshot is built after the lock is released.
        let (frozen, result) = state.withLock { s in (s, body()) }
        return (frozen.snapshotChanges(store: shape), result)
    }

    func replaceState(_ read: () -> [StoreChange]?) {
        state.withLock { s in
            guard let changes = read() else { return }
            // The random sequence goes on where it was, so ids handed out before are not handed out again.
            var rebuilt = State.start(random: s.random, collections: layouts.count, initial: initial)
            rebuilt.maxBytes = s.maxBytes
            for change in changes { rebuilt.apply(change, store: shape) }
            s = rebuilt
        }
    }

    /// Runs `change` (which may change the store), then waits until the changes it made are saved.
    ///
    /// Answers the error when they were not saved: they were undone then, in memory as on disk, so the caller answers
    /// that nothing happened. Without a data directory it only runs `change`.
    package func durably<T: Sendable>(_ change: () async -> T) async -> (T, StoreDataDirectoryError?) {
        guard let persistence else { return (await change(), nil) }
        let tickets = ChangeTickets()
        let value = await ChangeTickets.$current.withValue(tickets) { await change() }
        guard let ticket = tickets.highest else { return (value, nil) }
        do {
            try await persistence.waitUntilDurable(ticket: ticket)
            return (value, nil)
        } catch {
            return (value, error)
        }
    }
}

extension RecordStore {
    /// What opening the data directory noticed and repaired (a torn last record dropped, leftovers removed).
    public var dataDirectoryNotices: [String] { persistence?.notices ?? [] }
}
