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
            if created, let limit {
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
            self = Self.start(random: random, initial: initial)
        }
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
