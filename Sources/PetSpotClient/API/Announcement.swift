/// An announcement as the backend returns it (`GET /api/v1/announcements/{id}` and the list).
public struct Announcement: Sendable, Equatable, Decodable {
    /// The backend's UUID.
    public let id: String
    /// The pet's name, if given.
    public let petName: String?
    /// The species, e.g. `dog`.
    public let species: String
    /// The breed (the seeds call it race), if given.
    public let breed: String?
    /// The sex as sent, e.g. `MALE`.
    public let sex: String
    /// The age in whole years, if given.
    public let age: Int?
    /// The free-text description, if given.
    public let description: String?
    /// The microchip number (digits), if given.
    public let microchipNumber: String?
    /// Where the pet was last seen.
    public let locationLatitude: Double?
    /// Where the pet was last seen.
    public let locationLongitude: Double?
    /// The day the pet was last seen, `YYYY-MM-DD`.
    public let lastSeenDate: String
    /// The owner's email, if given.
    public let email: String?
    /// The owner's phone, if given.
    public let phone: String?
    /// The photo's path (e.g. `/images/<id>.jpeg`) or URL; `nil` until a photo is uploaded.
    public let photoUrl: String?
    /// The raw status (`MISSING`, `FOUND`; the details spec also expects `ACTIVE`, `CLOSED`).
    public let status: String
    /// The reward text, shown as-is, if given.
    public let reward: String?
    /// When the backend stored it (ISO 8601), if sent.
    public let createdAt: String?
    /// When the backend last changed it (ISO 8601), if sent.
    public let updatedAt: String?

    /// Creates an announcement, e.g. for presentation tests.
    public init(
        id: String, petName: String? = nil, species: String, breed: String? = nil, sex: String,
        age: Int? = nil, description: String? = nil, microchipNumber: String? = nil,
        locationLatitude: Double? = nil, locationLongitude: Double? = nil, lastSeenDate: String,
        email: String? = nil, phone: String? = nil, photoUrl: String? = nil, status: String,
        reward: String? = nil, createdAt: String? = nil, updatedAt: String? = nil
    ) {
        self.id = id
        self.petName = petName
        self.species = species
        self.breed = breed
        self.sex = sex
        self.age = age
        self.description = description
        self.microchipNumber = microchipNumber
        self.locationLatitude = locationLatitude
        self.locationLongitude = locationLongitude
        self.lastSeenDate = lastSeenDate
        self.email = email
        self.phone = phone
        self.photoUrl = photoUrl
        self.status = status
        self.reward = reward
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
