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
    struct Record: Sendable {
        var announcement: Announcement {
            // Reads far outnumber writes, so the answer is serialised once per change, not once per read.
            didSet { json = Self.render(announcement) }
        }
        var password: String
        var photo: Photo?
        /// The announcement as the API answers it.
        private(set) var json: ByteBuffer

        init(announcement: Announcement, password: String, photo: Photo? = nil) {
            self.announcement = announcement
            self.password = password
            self.photo = photo
            self.json = Self.render(announcement)
        }

        private static func render(_ announcement: Announcement) -> ByteBuffer {
            ByteBuffer(bytes: announcement.json.serializedBytes())
        }
    }

    /// The result of checking a management password.
    public enum Authentication: Sendable, Equatable {
        /// The password matches; `notFound`: no such announcement (404); `wrongPassword`: 403.
        case ok, notFound, wrongPassword
    }

    private struct State {
        var records: [String: Record] = [:]
        /// Insertion order, so lists are stable and newest-first like the real `ORDER BY createdAt DESC`.
        var order: [String] = []
        /// Microchip numbers in use, so the uniqueness check stays O(1) however many announcements there are.
        var microchips: Set<String> = []
        var random: PetSpotRandom

        mutating func insert(_ record: Record) {
            records[record.announcement.id] = record
            order.append(record.announcement.id)
            if let chip = record.announcement.microchipNumber { microchips.insert(chip) }
        }
    }

    private let state: Locked<State>
    private let seed: UInt64?
    private let initial: [Record]

    /// A store preloaded with `fixtures`; `seed` makes ids, passwords and request ids reproducible.
    public init(seed: UInt64?, fixtures: [PetSpotFixture] = []) {
        self.seed = seed
        self.initial = fixtures.map { Record(announcement: $0.announcement, password: $0.managementPassword, photo: $0.photo) }
        var s = State(random: PetSpotRandom(seed: seed))
        for record in initial { s.insert(record) }
        self.state = Locked(s)
    }

    /// Back to the state right after start: the fixtures only, and the random sequence from its seed again.
    public func reset() {
        var s = State(random: PetSpotRandom(seed: seed))
        for record in initial { s.insert(record) }
        state.withLock { $0 = s }
    }

    /// How many announcements are stored.
    public var count: Int { state.withLock { $0.records.count } }

    /// A fresh 10-character request id.
    public func nextRequestID() -> String { state.withLock { $0.random.requestID() } }

    /// Stores a new announcement built by `make` from a fresh id; nil when the microchip number is already taken.
    ///
    /// Answers the stored announcement, its password, and its JSON as the API renders it.
    func create(microchipNumber: String?, make: (_ id: String) -> Announcement) -> (Announcement, String, ByteBuffer)? {
        state.withLock { s in
            if let chip = microchipNumber, s.microchips.contains(chip) { return nil }
            var id = s.random.uuid()
            while s.records[id] != nil { id = s.random.uuid() }
            let password = s.random.managementPassword()
            let record = Record(announcement: make(id), password: password)
            s.insert(record)
            return (record.announcement, password, record.json)
        }
    }

    /// The announcement with this id.
    public func announcement(id: String) -> Announcement? { state.withLock { $0.records[id]?.announcement } }

    /// The announcement with this id as the API answers it, serialised once per change.
    func announcementJSON(id: String) -> ByteBuffer? { state.withLock { $0.records[id]?.json } }

    /// Every announcement that has a photo, newest first.
    public func listed() -> [Announcement] { listedRecords().map(\.announcement) }

    /// Every announcement that has a photo, newest first, with its rendered JSON.
    func listedRecords() -> [Record] {
        state.withLock { s in
            s.order.reversed().compactMap { id in s.records[id].flatMap { $0.announcement.photoUrl == nil ? nil : $0 } }
        }
    }

    /// Checks a management password in constant time; the user part of Basic auth is never compared.
    public func authenticate(id: String, password: String) -> Authentication {
        guard let stored = state.withLock({ $0.records[id]?.password }) else { return .notFound }
        return BasicCredentials.constantTimeEquals(stored, password) ? .ok : .wrongPassword
    }

    /// Stores (or replaces) the photo of an announcement and points its `photoUrl` at it.
    @discardableResult
    public func setPhoto(id: String, bytes: ByteBuffer, type: ImageType, updatedAt: String) -> Bool {
        state.withLock { s in
            guard var record = s.records[id] else { return false }
            record.photo = Photo(bytes: bytes, type: type)
            var announcement = record.announcement
            announcement.photoUrl = "/images/\(Self.fileName(id: id, type: type))"
            announcement.updatedAt = updatedAt
            record.announcement = announcement
            s.records[id] = record
            return true
        }
    }

    /// Deletes an announcement and its photo; false when there was none.
    public func delete(id: String) -> Bool {
        state.withLock { s in
            guard let removed = s.records.removeValue(forKey: id) else { return false }
            s.order.removeAll { $0 == id }
            if let chip = removed.announcement.microchipNumber { s.microchips.remove(chip) }
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
