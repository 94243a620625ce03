import ContractKit

/// A stored announcement, rendered with exactly the 18 keys of the real backend in its order.
public struct Announcement: Sendable, Equatable {
    /// UUID v4.
    public var id: String
    /// Optional pet name.
    public var petName: String?
    /// Species, e.g. `Dog`.
    public var species: String
    /// Optional breed.
    public var breed: String?
    /// Sex as sent, e.g. `MALE`.
    public var sex: String
    /// Optional age in whole years, kept as the JavaScript number the backend stores (`1e308` is a whole number too).
    public var age: Double?
    /// Optional description.
    public var description: String?
    /// Optional microchip number as sent (digits once trimmed).
    public var microchipNumber: String?
    /// Latitude of the last sighting.
    public var locationLatitude: Double
    /// Longitude of the last sighting.
    public var locationLongitude: Double
    /// `YYYY-MM-DD`.
    public var lastSeenDate: String
    /// Optional contact email.
    public var email: String?
    /// Optional contact phone.
    public var phone: String?
    /// `/images/<id>.<ext>` once a photo is stored.
    public var photoUrl: String?
    /// `MISSING` or `FOUND` when created through the API; fixtures may hold any status the database can (`ACTIVE`, `CLOSED`).
    public var status: String
    /// Optional reward text.
    public var reward: String?
    /// Creation time, `2025-11-19T10:00:00.000Z`.
    public var createdAt: String
    /// Last change time, same format.
    public var updatedAt: String

    /// The 18 keys of an announcement read back, in the real backend's order.
    public static let keys = [
        "id", "petName", "species", "breed", "sex", "age", "description", "microchipNumber", "locationLatitude",
        "locationLongitude", "lastSeenDate", "email", "phone", "photoUrl", "status", "reward", "createdAt", "updatedAt",
    ]

    /// The JSON the API answers with (never the management password).
    public var json: JSONValue {
        func text(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        return .object(
            JSONObject([
                ("id", .string(id)), ("petName", text(petName)), ("species", .string(species)), ("breed", text(breed)),
                ("sex", .string(sex)), ("age", age.map(JSONValue.number) ?? .null), ("description", text(description)),
                ("microchipNumber", text(microchipNumber)), ("locationLatitude", .number(locationLatitude)),
                ("locationLongitude", .number(locationLongitude)), ("lastSeenDate", .string(lastSeenDate)),
                ("email", text(email)), ("phone", text(phone)), ("photoUrl", text(photoUrl)), ("status", .string(status)),
                ("reward", text(reward)), ("createdAt", .string(createdAt)), ("updatedAt", .string(updatedAt)),
            ]))
    }
}
