import ContractKit
import NIOCore

extension AnnouncementStore.Record {
    /// A record from the JSON the store rendered earlier (read back from a data directory); nil when it is not an announcement.
    init?(json: ByteBuffer, password: String, photo: AnnouncementStore.Photo? = nil) {
        guard let value = try? JSONValue(parsing: Array(json.readableBytesView)), let object = value.objectValue,
            let latitude = object["locationLatitude"]?.numberValue, let longitude = object["locationLongitude"]?.numberValue
        else { return nil }
        self.json = json
        self.password = password
        self.photo = photo
        self.latitude = latitude
        self.longitude = longitude
        self.microchipNumber = object["microchipNumber"]?.stringValue
    }
}

extension AnnouncementStore.State {
    /// Replays one logged change exactly as the live store made it, eviction under `limit` included.
    mutating func apply(_ change: StoreChange, initial: [(id: String, record: AnnouncementStore.Record)], limit: Int?) {
        switch change {
        case .put(let id, let json, let password, let created):
            guard let record = AnnouncementStore.Record(json: json, password: password) else { return }
            remove(id)
            insert(record, id: id)
            // The live store tracks what the API created whenever a bound (count or bytes) may evict it.
            if created, limit != nil || maxBytes != nil {
                self.created.append((nextSequence - 1, id))
                evict(toKeep: limit)
            }
        case .photo(let id, let photo, let json):
            guard var record = records[id] else { return }
            record.photo = photo
            record.json = json
            records[id] = record
            list(id, sequence: record.sequence)
        case .delete(let id):
            remove(id)
        case .reset:
            let bound = maxBytes
            self = Self.start(random: random, initial: initial)
            maxBytes = bound
        case .clear:
            let bound = maxBytes
            self = Self(random: random)
            maxBytes = bound
        }
    }

    /// The state as a snapshot: `.clear`, then every announcement in creation order as a `put` (and a `photo`).
    func snapshotChanges(limit: Int?, initialIDs: Set<String>) -> [StoreChange] {
        // Under a limit, `created` says which announcements the API made (and so can be evicted); without one it is
        // not kept, and every announcement but the start fixtures counts as created.
        let created: Set<Int>? = limit == nil && maxBytes == nil ? nil : Set(self.created[createdHead...].map(\.sequence))
        var changes: [StoreChange] = [.clear]
        changes.reserveCapacity(records.count * 2 + 1)
        for (id, record) in records.sorted(by: { $0.value.sequence < $1.value.sequence }) {
            let isCreated = created.map { $0.contains(record.sequence) } ?? !initialIDs.contains(id)
            changes.append(.put(id: id, json: record.json, password: record.password, created: isCreated))
            if let photo = record.photo { changes.append(.photo(id: id, photo: photo, json: record.json)) }
        }
        return changes
    }

    /// The state right after start (or a reset): the fixtures only, drawing from `random`.
    static func start(random: PetSpotRandom, initial: [(id: String, record: AnnouncementStore.Record)]) -> Self {
        var s = Self(random: random)
        for (id, record) in initial { s.insert(record, id: id) }
        return s
    }

    /// Takes an announcement out of every index; nothing happens when there is none.
    mutating func remove(_ id: String) {
        guard let removed = records.removeValue(forKey: id) else { return }
        unlist(sequence: removed.sequence)
        if let chip = removed.microchipNumber { microchips.remove(chip) }
    }
}

extension AnnouncementStore: StoreDataDirectoryOwner {
    func withStateFrozen<T>(_ body: () -> T) -> (live: [StoreChange], result: T) {
        // Copying the state is cheap (copy on write); the snapshot is built after the lock is released.
        let (frozen, result) = state.withLock { s in (s, body()) }
        return (frozen.snapshotChanges(limit: limit, initialIDs: Set(initial.map(\.id))), result)
    }

    func replaceState(_ read: () -> [StoreChange]?) {
        state.withLock { s in
            guard let changes = read() else { return }
            // The random sequence goes on where it was, so ids handed out before are not handed out again.
            var rebuilt = State.start(random: s.random, initial: initial)
            rebuilt.maxBytes = s.maxBytes
            for change in changes { rebuilt.apply(change, initial: initial, limit: limit) }
            s = rebuilt
        }
    }

    /// Runs `change` (which may change the store), then waits until the changes it made are saved.
    ///
    /// Answers the error when they were not saved: they were undone then, in memory as on disk, so the caller answers
    /// that nothing happened. Without a data directory it only runs `change`.
    func durably<T: Sendable>(_ change: () async -> T) async -> (T, StoreDataDirectoryError?) {
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

extension AnnouncementStore {
    /// What opening the data directory noticed and repaired (a torn last record dropped, leftovers removed).
    public var dataDirectoryNotices: [String] { persistence?.notices ?? [] }
}
