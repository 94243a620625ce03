import ContractKit
import Foundation
import NIOCore

/// One preloaded announcement from a fixtures file, with its management password and optional photo bytes.
public struct PetSpotFixture: Sendable {
    /// The announcement as the API will show it (its `photoUrl` already points at the photo, if any).
    public let announcement: Announcement
    /// The management password that authorises photo uploads for it.
    public let managementPassword: String
    /// The photo served at `photoUrl`, if any.
    public let photo: AnnouncementStore.Photo?
}

/// A fixtures file that cannot be used, naming the file, the JSON pointer and what was expected.
public struct PetSpotFixtureError: Error, Sendable, CustomStringConvertible {
    /// The fixtures file.
    public let file: String
    /// Where in the file, e.g. `/announcements/2/status`.
    public let pointer: String
    /// What was wrong.
    public let reason: String

    /// `file: /pointer: reason`.
    public var description: String { "\(file): \(pointer.isEmpty ? "/" : pointer): \(reason)" }
}

extension PetSpotFixture {
    /// The fixtures shipped with the repository, `contracts/fixtures/pets.json`.
    public static var bundledFile: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("contracts/fixtures/pets.json")
    }

    /// Loads a fixtures file: `{"announcements": [{...announcement keys..., "managementPassword": "123456", "photo": {"base64": "..."}}]}`.
    public static func load(from url: URL) throws(PetSpotFixtureError) -> [PetSpotFixture] {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw PetSpotFixtureError(file: url.path, pointer: "", reason: "cannot read the file (\(FileErrorText.reason(error)))")
        }
        let root: JSONValue
        do { root = try JSONValue(parsing: data) } catch {
            throw PetSpotFixtureError(file: url.path, pointer: "", reason: "not valid JSON: \(error.description)")
        }
        return try parse(root, file: url.path)
    }

    /// Reads fixtures from an already parsed document; `file` names it in errors.
    public static func parse(_ root: JSONValue, file: String) throws(PetSpotFixtureError) -> [PetSpotFixture] {
        guard let items = root["announcements"]?.arrayValue else {
            throw PetSpotFixtureError(file: file, pointer: "", reason: "expected an object with an \"announcements\" array")
        }
        var fixtures: [PetSpotFixture] = []
        var seenIDs: Set<String> = []
        for (index, item) in items.enumerated() {
            let fixture = try parseOne(item, file: file, pointer: "/announcements/\(index)")
            guard seenIDs.insert(fixture.announcement.id).inserted else {
                throw PetSpotFixtureError(file: file, pointer: "/announcements/\(index)/id", reason: "duplicate id \(fixture.announcement.id)")
            }
            fixtures.append(fixture)
        }
        return fixtures
    }

    private static let allowedKeys = Set(Announcement.keys + ["managementPassword", "photo"])

    private static func parseOne(_ value: JSONValue, file: String, pointer: String) throws(PetSpotFixtureError) -> PetSpotFixture {
        func fail(_ key: String, _ reason: String) -> PetSpotFixtureError {
            PetSpotFixtureError(file: file, pointer: key.isEmpty ? pointer : "\(pointer)/\(key)", reason: reason)
        }
        guard let object = value.objectValue else { throw fail("", "expected an announcement object") }
        for key in object.keys where !allowedKeys.contains(key) {
            throw fail(key, "unknown key; expected one of \(Announcement.keys.joined(separator: ", ")), managementPassword, photo")
        }
        func required(_ key: String) throws(PetSpotFixtureError) -> String {
            guard let s = object[key]?.stringValue, !s.isEmpty else { throw fail(key, "expected a non-empty string") }
            return s
        }
        func optional(_ key: String) throws(PetSpotFixtureError) -> String? {
            switch object[key] {
            case nil, .null?: return nil
            case .string(let s)?: return s
            default: throw fail(key, "expected a string or null")
            }
        }
        func number(_ key: String, _ range: ClosedRange<Double>) throws(PetSpotFixtureError) -> Double {
            guard let n = object[key]?.numberValue, range.contains(n) else {
                throw fail(key, "expected a number in \(range.lowerBound)...\(range.upperBound)")
            }
            return n
        }
        let id = try required("id").lowercased()
        guard UUID(uuidString: id) != nil else { throw fail("id", "expected a UUID such as 6f1c2a4e-8b3d-4c5e-9f70-1a2b3c4d5e6f") }
        let password = try required("managementPassword")
        guard password.wholeMatch(of: /[1-9]\d{5}/) != nil else { throw fail("managementPassword", "expected 6 digits, 100000...999999") }
        let age: Double?
        switch object["age"] {
        case nil, .null?: age = nil
        case let v?:
            guard let a = v.numberValue, a >= 0, a.rounded() == a else { throw fail("age", "expected a whole number of years or null") }
            age = a
        }
        let lastSeen = try required("lastSeenDate")
        guard lastSeen.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil else { throw fail("lastSeenDate", "expected YYYY-MM-DD") }
        let defaultTime = "2025-11-19T10:00:00.000Z"
        let createdAt = try optional("createdAt") ?? defaultTime
        let updatedAt = try optional("updatedAt") ?? createdAt
        for (key, stamp) in [("createdAt", createdAt), ("updatedAt", updatedAt)] where !Timestamp.isValid(stamp) {
            throw fail(key, "expected a timestamp like \(defaultTime)")
        }
        var photo: AnnouncementStore.Photo?
        if let photoValue = object["photo"], !photoValue.isNull {
            guard let encoded = photoValue["base64"]?.stringValue, let data = Data(base64Encoded: encoded) else {
                throw fail("photo", "expected {\"base64\": \"<image bytes in base64>\"}")
            }
            guard let type = ImageType.detect(data) else {
                throw fail("photo/base64", "the bytes are not a JPEG, PNG, GIF, WEBP, BMP, TIFF, HEIC or HEIF image")
            }
            photo = AnnouncementStore.Photo(bytes: ByteBuffer(bytes: data), type: type)
        }
        let photoUrl = photo.map { "/images/\(AnnouncementStore.fileName(id: id, type: $0.type))" }
        if let given = try optional("photoUrl"), given != photoUrl {
            throw fail("photoUrl", "photoUrl is derived from the photo; expected \(photoUrl.map { "\"\($0)\"" } ?? "null") or no photoUrl key")
        }
        let announcement = Announcement(
            id: id, petName: try optional("petName"), species: try required("species"), breed: try optional("breed"),
            sex: try required("sex"), age: age, description: try optional("description"),
            microchipNumber: try optional("microchipNumber"), locationLatitude: try number("locationLatitude", -90...90),
            locationLongitude: try number("locationLongitude", -180...180), lastSeenDate: lastSeen, email: try optional("email"),
            phone: try optional("phone"), photoUrl: photoUrl, status: try required("status"), reward: try optional("reward"),
            createdAt: createdAt, updatedAt: updatedAt)
        return PetSpotFixture(announcement: announcement, managementPassword: password, photo: photo)
    }
}
