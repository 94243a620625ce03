import ContractKit
import Foundation

/// The in-memory database of the mock backend: the records of every collection the contracts declare, each with what
/// the API never shows (its secret, its file).
///
/// Every collection is kept alike: one creation sequence orders them, the count and byte bounds count them all, and the
/// data directory keeps them all. A lock rather than an actor guards it: every operation is a few dictionary steps, so
/// answering on the event loop under a short lock is far cheaper than hopping to an actor and back for each request.
public final class RecordStore: Sendable {
    /// A stored file: the bytes and the type detected from them.
    public struct Photo: Sendable {
        /// The file bytes exactly as uploaded.
        public let bytes: [UInt8]
        /// The detected image type, which names the file's extension.
        public let type: ImageType
    }

    /// One record with what the API never shows.
    ///
    /// The rendered JSON is the only copy of the fields: reads far outnumber writes, and keeping a parsed copy beside it
    /// more than doubled the memory per record. Only what lists and uniqueness need is kept apart (`derived`).
    struct Record: Sendable {
        /// The record as the API answers it.
        var json: [UInt8] {
            didSet { etag = nil }
        }
        /// Express's weak ETag of `json`, once a read has needed it; a new `json` clears it.
        var etag: String?
        /// The declared secret's value (`x-state.secret`), `""` when the collection has none.
        var secret: String
        var photo: Photo?
        var derived: RecordDerived
        /// Creation order, which orders lists and eviction.
        var sequence = 0

        init(json: [UInt8], secret: String, photo: Photo? = nil, derived: RecordDerived) {
            self.json = json
            self.secret = secret
            self.photo = photo
            self.derived = derived
        }

        /// Sets `fields` (the published address, the generated `updatedAt`) in the rendered JSON, keeping every other byte's meaning.
        mutating func set(_ fields: [(String, JSONValue)], layout: RecordLayout) {
            guard case .object(var object)? = try? JSONValue(parsing: Array(json)) else { return }
            for (name, value) in fields { object[name] = value }
            json = [UInt8](JSONValue.object(object).serializedBytes())
            derived = layout.derived(object: object)
        }
    }

    /// The result of checking a record's secret.
    public enum Authentication: Sendable, Equatable {
        /// The secret matches; `notFound`: no such record (404); `wrongPassword`: 403.
        case ok, notFound, wrongPassword
    }

    /// What a create made: the record's key, its secret and its JSON; or the unique field whose value is taken.
    enum Created {
        case stored(key: String, secret: String, json: [UInt8])
        case taken(field: String)
    }

    /// The layout of every collection, by index.
    let layouts: [RecordLayout]
    /// The collection a record without a named collection belongs to (a data directory of an earlier version, the
    /// primary-collection helpers): the first collection declared.
    let primary: Int
    let state: Locked<State>
    private let seed: UInt64?
    /// The most records created through the API that are kept (oldest evicted first); nil keeps all.
    public let limit: Int?
    /// The most bytes the stored records and files may take (oldest created evicted first); nil bounds nothing.
    public let maxBytes: Int?
    let initial: [(collection: Int, id: String, record: Record)]
    /// Where changes are kept across restarts (`serve --data-dir`); nil keeps the store in memory only.
    package let persistence: StoreDataDirectory?

    /// A store of the collections `contracts` declare, preloaded with `fixtures`; `seed` makes ids, secrets and
    /// request ids reproducible.
    ///
    /// `limit` bounds the records created through the API, and `maxBytes` what all records and files take in memory, so
    /// a long-running mock cannot grow without end; the oldest created go first and fixtures never do.
    public convenience init(contracts: ContractSet, seed: UInt64?, fixtures: [RecordFixture] = [], limit: Int? = nil, maxBytes: Int? = nil,
                            persistence: StoreDataDirectory? = nil) {
        self.init(layouts: RecordLayout.all(contracts), seed: seed, fixtures: fixtures, limit: limit, maxBytes: maxBytes, persistence: persistence)
    }

    init(layouts: [RecordLayout], seed: UInt64?, fixtures: [RecordFixture], limit: Int?, maxBytes: Int?, persistence: StoreDataDirectory?) {
        self.layouts = layouts
        self.primary = 0
        self.seed = seed
        self.limit = limit.map { max(1, $0) }
        self.maxBytes = maxBytes.map { max(1, $0) }
        let initial: [(collection: Int, id: String, record: Record)] = fixtures.compactMap { fixture -> (collection: Int, id: String, record: Record)? in
            guard let layout = layouts.first(where: { $0.name == fixture.collection }) else { return nil }
            let (id, record) = fixture.record(layout: layout)
            return (layout.index, id, record)
        }
        self.initial = initial
        var s = State.start(random: ModelRandom(seed: seed), collections: layouts.count, initial: initial)
        self.persistence = persistence
        let shape = Shape(layouts: layouts, primary: 0, initial: initial, limit: self.limit)
        for change in persistence?.takeRestored() ?? [] { s.apply(change, store: shape) }
        s.maxBytes = self.maxBytes
        s.evict(toKeep: self.limit)
        self.state = Locked(s)
        persistence?.attach(self)
    }

    /// The layout of the collection named `name` (nil: none; nil name: the primary collection).
    func layout(named name: String?) -> RecordLayout? { shape.layout(named: name) }

    /// Back to the state right after start: the fixtures only, and the random sequence from its seed again.
    public func reset() {
        var s = State.start(random: ModelRandom(seed: seed), collections: layouts.count, initial: initial)
        s.maxBytes = maxBytes
        state.withLock { current in
            current = s
            persistence?.record(.reset)
        }
    }

    /// How many records are stored, in every collection.
    public var count: Int { state.withLock { $0.count } }

    /// What the stored records and files take in memory, in bytes, as the byte bound counts it.
    public var bytes: Int { state.withLock { $0.bytes } }

    /// How many records the limits have evicted since the start (or the last reset).
    public var evictedCount: Int { state.withLock { $0.evicted } }

    /// A fresh value of a random generator (`uuid-v4`, `digits-6`), from the seeded sequence when the store is seeded.
    func draw(_ generator: StateGenerator) -> String {
        guard seed != nil else {
            var system = ModelRandom(seed: nil)
            return system.draw(generator)
        }
        return state.withLock { $0.random.draw(generator) }
    }

    /// A fresh version 4 UUID, from the seeded sequence when the store is seeded.
    public func nextUUID() -> String { draw(.uuidV4) }

    /// A fresh six-digit number (100000...999999), from the seeded sequence when the store is seeded.
    public func nextDigits6() -> String { draw(.digits6) }

    /// A fresh 10-character request id.
    ///
    /// Unseeded ids come from `RequestIDSource`, which needs no shared state: every request would otherwise take the
    /// store's lock once just for its id, and the event loops queue on it. Seeded ids keep their one reproducible sequence.
    public func nextRequestID() -> String {
        guard seed != nil else { return RequestIDSource.next() }
        return state.withLock { $0.random.requestID() }
    }

    /// Stores a new record in collection `c`: `make` gets a fresh value for each of `draws` (in order) and answers the
    /// record and its key. Answers what was stored, or the first unique field (in declared order) whose value is taken.
    func create(in c: Int, draws: [StateGenerator], make: ([String]) -> (key: String, record: Record)) -> Created {
        let layout = layouts[c]
        guard seed == nil else {
            // Seeded, the draws must come in one order whichever event loop creates, so they stay under the lock.
            return state.withLock { s in
                var made = make(draws.map { s.random.draw($0) })
                // A repeated generated key is all but impossible; if it happens, draw again rather than overwrite.
                while layout.keyIsGenerated, s.tables[c].records[made.key] != nil { made = make(draws.map { s.random.draw($0) }) }
                if let field = s.taken(made.record, key: made.key, layout: layout) { return .taken(field: field) }
                store(made.record, id: made.key, in: c, state: &s)
                return .stored(key: made.key, secret: made.record.secret, json: made.record.json)
            }
        }
        // Unseeded, the draws and the rendered JSON are made before taking the lock, which then covers only the checks
        // and the insert: creates on different event loops no longer wait for each other's rendering.
        var system = ModelRandom(seed: nil)
        while true {
            let made = make(draws.map { system.draw($0) })
            let outcome: Created? = state.withLock { s in
                if let field = s.taken(made.record, key: made.key, layout: layout) { return .taken(field: field) }
                // A repeated generated key is all but impossible; if it happens, draw again rather than overwrite.
                if layout.keyIsGenerated, s.tables[c].records[made.key] != nil { return nil }
                store(made.record, id: made.key, in: c, state: &s)
                return .stored(key: made.key, secret: made.record.secret, json: made.record.json)
            }
            if let outcome { return outcome }
        }
    }

    /// Inserts a newly created record, applies the bounds, and writes it to the data directory; the lock is held.
    private func store(_ record: Record, id: String, in c: Int, state s: inout State) {
        s.insert(record, id: id, in: c)
        if limit != nil || maxBytes != nil {
            s.created.append((c, s.nextSequence - 1, id))
            s.evict(toKeep: limit)
        }
        persistence?.record(.put(collection: layouts[c].name, id: id, json: record.json, secret: record.secret, created: true))
    }

    /// The record of collection `c` with this key as the API answers it.
    func recordJSON(in c: Int, id: String) -> [UInt8]? { state.withLock { $0.tables[c].records[id]?.json } }

    /// The record of collection `c` with this key, with what the store keeps apart.
    func record(in c: Int, id: String) -> Record? { state.withLock { $0.tables[c].records[id] } }

    /// The primary collection's record with this id as the API answers it.
    public func primaryRecordJSON(id: String) -> [UInt8]? { layouts.isEmpty ? nil : recordJSON(in: primary, id: id) }

    /// The record with this key as the API answers it, with Express's weak ETag of those bytes.
    ///
    /// The ETag is hashed once per version of the JSON, outside the lock, and kept with the record: a GET by id hashed
    /// the same bytes on every request, 5 % of its CPU.
    func recordForReading(in c: Int, id: String) -> (json: [UInt8], etag: String)? {
        guard let (json, cached) = state.withLock({ s in s.tables[c].records[id].map { ($0.json, $0.etag) } }) else { return nil }
        if let cached { return (json, cached) }
        let etag = ExpressETag.weak(for: json)
        state.withLock { s in
            // Kept only if the record still has these bytes: a file upload may have replaced them meanwhile.
            guard var record = s.tables[c].records[id], record.json == json else { return }
            record.etag = etag
            s.tables[c].records[id] = record
        }
        return (json, etag)
    }

    /// The records of collection `c` lists show, in creation order.
    func listedRecords(in c: Int) -> [Record] {
        state.withLock { s in
            s.tables[c].listed.compactMap { s.tables[c].records[$0.id] }
        }
    }

    /// Checks a record's secret in constant time.
    func authenticate(in c: Int, id: String, secret: String) -> Authentication {
        guard let stored = state.withLock({ $0.tables[c].records[id]?.secret }) else { return .notFound }
        return BasicCredentials.constantTimeEquals(stored, secret) ? .ok : .wrongPassword
    }

    /// Checks a primary-collection record's secret (the one its attach-file's credentials compare).
    public func authenticate(id: String, password: String) -> Authentication {
        authenticate(in: primary, id: id, secret: password)
    }

    /// Stores (or replaces) the file of a record of collection `c` and sets `fields` in it (its published address, `updatedAt`).
    @discardableResult
    func setPhoto(in c: Int, id: String, bytes: [UInt8], type: ImageType, fields: [(String, JSONValue)]) -> Bool {
        state.withLock { s in
            guard var record = s.tables[c].records[id] else { return false }
            record.photo = Photo(bytes: bytes, type: type)
            record.set(fields, layout: layouts[c])
            s.tables[c].records[id] = record
            s.tables[c].relist(id, record: record)
            persistence?.record(.photo(collection: layouts[c].name, id: id, photo: Photo(bytes: bytes, type: type), json: record.json))
            if maxBytes != nil { s.evict(toKeep: limit, sparing: (c, id)) }
            return true
        }
    }

    /// Stores the file of a primary-collection record and sets `fields` in it.
    @discardableResult
    public func setPhoto(id: String, bytes: [UInt8], type: ImageType, fields: [(String, JSONValue)]) -> Bool {
        setPhoto(in: primary, id: id, bytes: bytes, type: type, fields: fields)
    }

    /// Deletes a record of collection `c` and its file; false when there was none.
    func delete(in c: Int, id: String) -> Bool {
        state.withLock { s in
            guard s.tables[c].records[id] != nil else { return false }
            s.tables[c].remove(id)
            persistence?.record(.delete(collection: layouts[c].name, id: id))
            return true
        }
    }

    /// Deletes a primary-collection record and its file; false when there was none.
    public func delete(id: String) -> Bool { layouts.isEmpty ? false : delete(in: primary, id: id) }

    /// The file served under `fileName` (`{id}.{ext}`) from collection `c`; only names this store generated ever match.
    func photo(in c: Int, fileName: String) -> Photo? {
        guard let dot = fileName.lastIndex(of: ".") else { return nil }
        let id = String(fileName[..<dot])
        return state.withLock { s in
            guard let record = s.tables[c].records[id], let photo = record.photo, Self.fileName(id: id, type: photo.type) == fileName else { return nil }
            return photo
        }
    }

    /// The stored file name of a photo: the generated id and the detected type, never anything the client sent.
    static func fileName(id: String, type: ImageType) -> String { "\(id).\(type.fileExtension)" }
}

extension ModelRandom {
    /// A fresh value of a random generator; the time and token generators are not random and answer `""`.
    mutating func draw(_ generator: StateGenerator) -> String {
        switch generator {
        case .uuidV4: return uuid()
        case .digits6: return sixDigits()
        case .nowISOMilliseconds, .jwtHS256: return ""
        }
    }
}
