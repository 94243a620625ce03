import ContractKit
import ContractModel

/// A generated announcement the session's backend holds before the first step, read through `loadDetails` and `list`.
public struct StoredPet: Sendable, Equatable, Hashable {
    /// Its id (a UUID derived from the session's draws).
    public var id: String
    /// API status: ACTIVE, MISSING, FOUND or CLOSED (ACTIVE and CLOSED are outside the create schema, as on the real database).
    public var status: String
    /// MALE or FEMALE.
    public var sex: String
    /// `YYYY-MM-DD`.
    public var lastSeenDate: String
    /// Optional fields; `nil` is stored as JSON null.
    public var breed: String?
    /// Whole years, or `nil`.
    public var age: Int?
    /// Free text, or `nil`.
    public var description: String?
    /// Digits, or `nil`.
    public var microchipNumber: String?
    /// Free text shown as-is, or `nil`.
    public var reward: String?
    /// At least one of phone and email is present (seed 002 Clarifications: at least one contact is required).
    public var phone: String?
    /// See `phone`.
    public var email: String?
    /// Whether a photo is stored (a pet without one shows "Image not available" and is not listed).
    public var hasPhoto: Bool
    /// Where the pet was last seen (the list's distance filter reads it).
    public var latitude = 52.2297
    /// See `latitude`.
    public var longitude = 21.0122

    /// A 2x2 PNG, the smallest image the backend accepts as a photo.
    static let photoBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGM4UaEBRAwQCgAp7gWhjAnOiAAAAABJRU5ErkJggg=="

    /// The announcement in the mock backend's fixtures format.
    public var fixture: JSONValue {
        func text(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
        var o: JSONObject = [
            "id": .string(id), "species": "DOG", "sex": .string(sex), "status": .string(status), "lastSeenDate": .string(lastSeenDate),
            "locationLatitude": .number(latitude), "locationLongitude": .number(longitude), "managementPassword": "482913",
            "breed": text(breed), "age": age.map { .number(Double($0)) } ?? .null, "description": text(description),
            "microchipNumber": text(microchipNumber), "reward": text(reward), "phone": text(phone), "email": text(email),
        ]
        if hasPhoto { o["photo"] = ["base64": .string(Self.photoBase64)] }
        return .object(o)
    }
}
