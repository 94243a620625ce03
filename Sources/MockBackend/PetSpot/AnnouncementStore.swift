import ContractKit
import Foundation
import NIOCore

/// The in-memory database of the mock backend: announcements, their management passwords and photos.
///
/// A lock rather than an actor guards it: every operation is a few dictionary steps, so answering on the
/// event loop under a short lock is far cheaper than hopping to an actor and back for each request.
public final class AnnouncementStore: Sendable {
    /// A stored photo: the bytes and the type detected from them.
    public struct Photo: Sendable {
        /// The file bytes exactly as uploaded.
        public let bytes: ByteBuffer
        /// The detected image type, which names the file's extension.
        public let type: ImageType
    }

    /// One announcement with what the API never shows.
    ///
    /// The rendered JSON is the only copy of the fields: reads far outnumber writes, and keeping a parsed copy
    /// beside it more than doubled the memory per announcement. Only what lists and checks need is kept apart.
    struct Record: Sendable {
        /// The announcement as the API answers it.
        var json: ByteBuffer {
            didSet { etag = nil }
        }
        /// Express's weak ETag of `json`, once a read has needed it; a new `json` clears it.
        var etag: String?
        var password: String
        var photo: Photo?
        let latitude: Double
        let longitude: Double
        let microchipNumber: String?
        /// Whether lists show it: only announcements with a photo (and so a `photoUrl`) are listed.
        var listed: Bool { photo != nil }
        /// Creation order, which orders lists.
        var sequence = 0

        init(announcement: Announcement, password: String, photo: Photo? = nil) {
            self.json = ByteBuffer(bytes: announcement.json.serializedBytes())
            self.password = password
            self.photo = photo
            self.latitude = announcement.locationLatitude
            self.longitude = announcement.locationLongitude
            self.microchipNumber = announcement.microchipNumber
        }

        /// Sets `fields` (the published address, the generated `updatedAt`) in the rendered JSON, keeping every other byte's meaning.
        mutating func set(_ fields: [(String, JSONValue)]) {
            guard case .object(var object)? = try? JSONValue(parsing: Array(json.readableBytesView)) else { return }
            for (name, value) in fields { object[name] = value }
            json = ByteBuffer(bytes: JSONValue.object(object).serializedBytes())
        }
    }

    /// The result of checking a management password.
    public enum Authentication: Sendable, Equatable {
        /// The password matches; `notFound`: no such announcement (404); `wrongPassword`: 403.
        case ok, notFound, wrongPassword
    }

    struct State {
        var records = RecordTable()
        /// The listed announcements (those with a photo) by creation sequence, oldest first, the order lists show
        /// (petspot-api.md: "in creation order"). Kept apart so a list never walks unlisted announcements.
        var listed: [(sequence: Int, id: String)] = []
        var nextSequence = 0
        /// The most bytes the records may hold (see `Record.footprint`); nil bounds nothing. Set after start and replay.
        var maxBytes: Int?
        /// Announcements created through the API, oldest first from `createdHead`: the eviction order under a limit.
        var created: [(sequence: Int, id: String)] = []
        var createdHead = 0
        /// How many announcements the limit has evicted.
        var evicted = 0
        /// Microchip numbers in use (the create's declared unique field; only non-empty values take part), so the
        /// uniqueness check stays O(1) however many announcements there are.
        var microchips: Set<String> = []
        var random: PetSpotRandom

        mutating func insert(_ record: Record, id: String) {
            var record = record
            record.sequence = nextSequence
            nextSequence += 1
            records[id] = record
            if record.listed { list(id, sequence: record.sequence) }
            if let chip = record.microchipNumber, !chip.isEmpty { microchips.insert(chip) }
        }

        /// Where `sequence` is, or belongs, in `listed`.
        func listedIndex(_ sequence: Int) -> Int {
            var (low, high) = (0, listed.count)
            while low < high {
                let mid = (low + high) / 2
                if listed[mid].sequence < sequence { low = mid + 1 } else { high = mid }
            }
            return low
        }

        mutating func list(_ id: String, sequence: Int) {
            let i = listedIndex(sequence)
            if i < listed.count, listed[i].sequence == sequence { return }
            listed.insert((sequence, id), at: i)
        }

        /// Drops the oldest live announcements created through the API until at most `limit` remain and the records fit
        /// `maxBytes`; fixtures stay, and so do the newest created announcement and `sparing` (one just given a photo), so a
        /// 201 is never followed by its own eviction.
        mutating func evict(toKeep limit: Int?, sparing: String? = nil) {
            while createdHead < created.count {
                let live = created.count - createdHead
                let overCount = limit.map { live > $0 } ?? false
                let overBytes = maxBytes.map { records.bytes > $0 && live > 1 } ?? false
                guard overCount || overBytes else { break }
                let (sequence, id) = created[createdHead]
                if !overCount, id == sparing { break }
                createdHead += 1
                // A deleted announcement leaves its entry behind; only a live record with the same sequence is evicted.
                if let record = records[id], record.sequence == sequence {
                    records[id] = nil
                    unlist(sequence: sequence)
                    if let chip = record.microchipNumber { microchips.remove(chip) }
                    evicted += 1
                }
            }
            // Compact now and then so the consumed head does not grow for ever.
            if createdHead > 1024, createdHead * 2 > created.count {
                created.removeFirst(createdHead)
                createdHead = 0
            }
        }

        mutating func unlist(sequence: Int) {
            let i = listedIndex(sequence)
            if i < listed.count, listed[i].sequence == sequence { listed.remove(at: i) }
        }
    }

    let state: Locked<State>
    /// Small collections the contracts declare besides the announcements (fb9f56a's users), by name; in memory only.
    let collections = Locked<[String: RecordCollection]>([:])
    private let seed: UInt64?
    /// The most announcements created through the API that are kept (oldest evicted first); nil keeps all.
    public let limit: Int?
    /// The most bytes the stored announcements and photos may take (oldest created evicted first); nil bounds nothing.
    public let maxBytes: Int?
    let initial: [(id: String, record: Record)]
    /// Where changes are kept across restarts (`serve --data-dir`); nil keeps the store in memory only.
    let persistence: StoreDataDirectory?

    /// A store preloaded with `fixtures`; `seed` makes ids, passwords and request ids reproducible.
    ///
    /// `limit` bounds the announcements created through the API, and `maxBytes` what all announcements and photos take
    /// in memory, so a long-running mock cannot grow without end; the oldest created go first and fixtures never do.
    public init(seed: UInt64?, fixtures: [PetSpotFixture] = [], limit: Int? = nil, maxBytes: Int? = nil,
                persistence: StoreDataDirectory? = nil) {
        self.seed = seed
        self.limit = limit.map { max(1, $0) }
        self.maxBytes = maxBytes.map { max(1, $0) }
        self.initial = fixtures.map {
            ($0.announcement.id, Record(announcement: $0.announcement, password: $0.managementPassword, photo: $0.photo))
        }
        var s = State.start(random: PetSpotRandom(seed: seed), initial: initial)
        self.persistence = persistence
        for change in persistence?.takeRestored() ?? [] { s.apply(change, initial: initial, limit: self.limit) }
        s.maxBytes = self.maxBytes
        s.evict(toKeep: self.limit)
        self.state = Locked(s)
        persistence?.attach(self)
    }

    /// Back to the state right after start: the fixtures only, and the random sequence from its seed again.
    public func reset() {
        var s = State.start(random: PetSpotRandom(seed: seed), initial: initial)
        s.maxBytes = maxBytes
        state.withLock { current in
            current = s
            persistence?.record(.reset)
        }
        collections.withLock { $0 = [:] }
    }

    /// How many announcements are stored.
    public var count: Int { state.withLock { $0.records.count } }

    /// What the stored announcements and photos take in memory, in bytes, as the byte bound counts it.
    public var bytes: Int { state.withLock { $0.records.bytes } }

    /// How many announcements the limits have evicted since the start (or the last reset).
    public var evictedCount: Int { state.withLock { $0.evicted } }

    /// A fresh version 4 UUID, from the seeded sequence when the store is seeded.
    public func nextUUID() -> String {
        guard seed != nil else {
            var system = PetSpotRandom(seed: nil)
            return system.uuid()
        }
        return state.withLock { $0.random.uuid() }
    }

    /// A fresh six-digit number (100000...999999), from the seeded sequence when the store is seeded.
    public func nextDigits6() -> String {
        guard seed != nil else {
            var system = PetSpotRandom(seed: nil)
            return system.managementPassword()
        }
        return state.withLock { $0.random.managementPassword() }
    }

    /// A fresh 10-character request id.
    ///
    /// Unseeded ids come from `RequestIDSource`, which needs no shared state: every request would otherwise take the
    /// store's lock once just for its id, and the event loops queue on it. Seeded ids keep their one reproducible sequence.
    public func nextRequestID() -> String {
        guard seed != nil else { return RequestIDSource.next() }
        return state.withLock { $0.random.requestID() }
    }

    /// Stores a new announcement built by `make` from a fresh id; nil when the microchip number is already taken.
    ///
    /// Answers the new id, its password, and the announcement's JSON as the API renders it.
    func create(microchipNumber: String?, make: (_ id: String) -> Announcement) -> (id: String, password: String, json: ByteBuffer)? {
        guard seed == nil else {
            // Seeded, the draws must come in one order whichever event loop creates, so they stay under the lock.
            return state.withLock { s in
                if let chip = microchipNumber, !chip.isEmpty, s.microchips.contains(chip) { return nil }
                var id = s.random.uuid()
                while s.records[id] != nil { id = s.random.uuid() }
                let password = s.random.managementPassword()
                let record = Record(announcement: make(id), password: password)
                store(record, id: id, password: password, in: &s)
                return (id, password, record.json)
            }
        }
        // Unseeded, the id, the password and the rendered JSON are made before taking the lock, which then covers only
        // the checks and the insert: creates on different event loops no longer wait for each other's rendering.
        var system = PetSpotRandom(seed: nil)
        while true {
            let id = system.uuid()
            let password = system.managementPassword()
            let record = Record(announcement: make(id), password: password)
            let stored: Bool? = state.withLock { s in
                if let chip = microchipNumber, !chip.isEmpty, s.microchips.contains(chip) { return nil }
                // A repeated version 4 UUID is all but impossible; if it happens, draw again rather than overwrite.
                guard s.records[id] == nil else { return false }
                store(record, id: id, password: password, in: &s)
                return true
            }
            switch stored {
            case nil: return nil
            case false?: continue
            case true?: return (id, password, record.json)
            }
        }
    }

    /// Inserts a newly created record, applies the bounds, and writes it to the data directory; the lock is held.
    private func store(_ record: Record, id: String, password: String, in s: inout State) {
        s.insert(record, id: id)
        if limit != nil || maxBytes != nil {
            s.created.append((s.nextSequence - 1, id))
            s.evict(toKeep: limit)
        }
        persistence?.record(.put(id: id, json: record.json, password: password, created: true))
    }

    /// The announcement with this id as the API answers it.
    public func announcementJSON(id: String) -> ByteBuffer? { state.withLock { $0.records[id]?.json } }

    /// The announcement with this id as the API answers it, with Express's weak ETag of those bytes.
    ///
    /// The ETag is hashed once per version of the JSON, outside the lock, and kept with the record: a GET by id hashed
    /// the same bytes on every request, 5 % of its CPU.
    func announcementForReading(id: String) -> (json: ByteBuffer, etag: String)? {
        guard let (json, cached) = state.withLock({ s in s.records[id].map { ($0.json, $0.etag) } }) else { return nil }
        if let cached { return (json, cached) }
        let etag = ExpressETag.weak(for: json)
        state.withLock { s in
            // Kept only if the record still has these bytes: a photo upload may have replaced them meanwhile.
            guard var record = s.records[id], record.json == json else { return }
            record.etag = etag
            s.records[id] = record
        }
        return (json, etag)
    }

    /// The announcements lists show (those with a photo), in creation order.
    func listedRecords() -> [Record] {
        state.withLock { s in
            s.listed.compactMap { s.records[$0.id] }
        }
    }

    /// Checks a management password in constant time; the user part of Basic auth is never compared.
    public func authenticate(id: String, password: String) -> Authentication {
        guard let stored = state.withLock({ $0.records[id]?.password }) else { return .notFound }
        return BasicCredentials.constantTimeEquals(stored, password) ? .ok : .wrongPassword
    }

    /// Stores (or replaces) the photo of an announcement and sets `fields` in it (its published address, `updatedAt`).
    @discardableResult
    public func setPhoto(id: String, bytes: ByteBuffer, type: ImageType, fields: [(String, JSONValue)]) -> Bool {
        state.withLock { s in
            guard var record = s.records[id] else { return false }
            record.photo = Photo(bytes: bytes, type: type)
            record.set(fields)
            s.records[id] = record
            s.list(id, sequence: record.sequence)
            persistence?.record(.photo(id: id, photo: Photo(bytes: bytes, type: type), json: record.json))
            if maxBytes != nil { s.evict(toKeep: limit, sparing: id) }
            return true
        }
    }

    /// Deletes an announcement and its photo; false when there was none.
    public func delete(id: String) -> Bool {
        state.withLock { s in
            guard s.records[id] != nil else { return false }
            s.remove(id)
            persistence?.record(.delete(id: id))
            return true
        }
    }

    /// The photo served at `/images/<fileName>`; only names this store generated ever match.
    public func photo(fileName: String) -> Photo? {
        guard let dot = fileName.lastIndex(of: ".") else { return nil }
        let id = String(fileName[..<dot])
        return state.withLock { s in
            guard let record = s.records[id], let photo = record.photo, Self.fileName(id: id, type: photo.type) == fileName else { return nil }
            return photo
        }
    }

    /// The stored file name of a photo: the generated id and the detected type, never anything the client sent.
    static func fileName(id: String, type: ImageType) -> String { "\(id).\(type.fileExtension)" }
}
