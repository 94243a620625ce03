import Foundation
import NIOCore

/// The in-memory database of the mock backend: announcements, their management passwords and photos.
public actor AnnouncementStore {
    /// A stored photo: the bytes and the type detected from them.
    public struct Photo: Sendable {
        /// The file bytes exactly as uploaded.
        public let bytes: ByteBuffer
        /// The detected image type, which names the file's extension.
        public let type: ImageType
    }

    /// One announcement with what the API never shows.
    struct Record: Sendable {
        var announcement: Announcement
        var password: String
        var photo: Photo?
    }

    /// The result of checking a management password.
    public enum Authentication: Sendable, Equatable {
        /// The password matches; `notFound`: no such announcement (404); `wrongPassword`: 403.
        case ok, notFound, wrongPassword
    }

    private var records: [String: Record] = [:]
    /// Insertion order, so lists are stable and newest-first like the real `ORDER BY createdAt DESC`.
    private var order: [String] = []
    /// Microchip numbers in use, so the uniqueness check stays O(1) however many announcements there are.
    private var microchips: Set<String> = []
    private var random: PetSpotRandom
    private let seed: UInt64?
    private let initial: [Record]

    /// A store preloaded with `fixtures`; `seed` makes ids, passwords and request ids reproducible.
    public init(seed: UInt64?, fixtures: [PetSpotFixture] = []) {
        self.seed = seed
        self.random = PetSpotRandom(seed: seed)
        self.initial = fixtures.map { Record(announcement: $0.announcement, password: $0.managementPassword, photo: $0.photo) }
        // An actor's init cannot call its isolated methods, so the first fill is spelled out.
        for record in initial {
            records[record.announcement.id] = record
            order.append(record.announcement.id)
            if let chip = record.announcement.microchipNumber { microchips.insert(chip) }
        }
    }

    /// Back to the state right after start: the fixtures only, and the random sequence from its seed again.
    public func reset() {
        records = [:]
        order = []
        microchips = []
        random = PetSpotRandom(seed: seed)
        for record in initial { insert(record) }
    }

    private func insert(_ record: Record) {
        records[record.announcement.id] = record
        order.append(record.announcement.id)
        if let chip = record.announcement.microchipNumber { microchips.insert(chip) }
    }

    /// How many announcements are stored.
    public var count: Int { records.count }

    /// A fresh 10-character request id.
    public func nextRequestID() -> String { random.requestID() }

    /// Stores a new announcement built by `make` from a fresh id; nil when the microchip number is already taken.
    public func create(microchipNumber: String?, make: @Sendable (_ id: String) -> Announcement) -> (Announcement, String)? {
        if let chip = microchipNumber, microchips.contains(chip) { return nil }
        var id = random.uuid()
        while records[id] != nil { id = random.uuid() }
        let password = random.managementPassword()
        let announcement = make(id)
        insert(Record(announcement: announcement, password: password))
        return (announcement, password)
    }

    /// The announcement with this id.
    public func announcement(id: String) -> Announcement? { records[id]?.announcement }

    /// Every announcement that has a photo, newest first.
    public func listed() -> [Announcement] {
        order.reversed().compactMap { id in records[id].flatMap { $0.announcement.photoUrl == nil ? nil : $0.announcement } }
    }

    /// Checks a management password in constant time; the user part of Basic auth is never compared.
    public func authenticate(id: String, password: String) -> Authentication {
        guard let record = records[id] else { return .notFound }
        return BasicCredentials.constantTimeEquals(record.password, password) ? .ok : .wrongPassword
    }

    /// Stores (or replaces) the photo of an announcement and points its `photoUrl` at it.
    @discardableResult
    public func setPhoto(id: String, bytes: ByteBuffer, type: ImageType, updatedAt: String) -> Bool {
        guard var record = records[id] else { return false }
        record.photo = Photo(bytes: bytes, type: type)
        record.announcement.photoUrl = "/images/\(Self.fileName(id: id, type: type))"
        record.announcement.updatedAt = updatedAt
        records[id] = record
        return true
    }

    /// Deletes an announcement and its photo; false when there was none.
    public func delete(id: String) -> Bool {
        guard let removed = records.removeValue(forKey: id) else { return false }
        order.removeAll { $0 == id }
        if let chip = removed.announcement.microchipNumber { microchips.remove(chip) }
        return true
    }

    /// The photo served at `/images/<fileName>`; only names this store generated ever match.
    public func photo(fileName: String) -> Photo? {
        guard let dot = fileName.lastIndex(of: ".") else { return nil }
        let id = String(fileName[..<dot])
        guard let record = records[id], let photo = record.photo,
            Self.fileName(id: id, type: photo.type) == fileName
        else { return nil }
        return photo
    }

    /// The stored file name of a photo: the generated id and the detected type, never anything the client sent.
    static func fileName(id: String, type: ImageType) -> String { "\(id).\(type.fileExtension)" }
}
