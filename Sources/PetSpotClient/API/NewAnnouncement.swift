/// The JSON body of `POST /api/v1/announcements`; `nil` fields are left out of the request.
public struct NewAnnouncement: Sendable, Equatable, Encodable {
    /// The pet's name.
    public var petName: String?
    /// The species (required).
    public var species: String
    /// The breed/race.
    public var breed: String?
    /// The sex (required).
    public var sex: String
    /// The age in whole years.
    public var age: Int?
    /// The free-text description.
    public var description: String?
    /// The microchip number, digits only.
    public var microchipNumber: String?
    /// Where the pet was last seen (required).
    public var locationLatitude: Double
    /// Where the pet was last seen (required).
    public var locationLongitude: Double
    /// The owner's email; at least one of email and phone.
    public var email: String?
    /// The owner's phone; at least one of email and phone.
    public var phone: String?
    /// The day the pet was last seen, `YYYY-MM-DD` (required).
    public var lastSeenDate: String
    /// `MISSING` or `FOUND` (required).
    public var status: String
    /// The reward text.
    public var reward: String?

    /// Creates a request body.
    public init(
        petName: String? = nil, species: String, breed: String? = nil, sex: String, age: Int? = nil,
        description: String? = nil, microchipNumber: String? = nil, locationLatitude: Double,
        locationLongitude: Double, email: String? = nil, phone: String? = nil, lastSeenDate: String,
        status: String = "MISSING", reward: String? = nil
    ) {
        self.petName = petName
        self.species = species
        self.breed = breed
        self.sex = sex
        self.age = age
        self.description = description
        self.microchipNumber = microchipNumber
        self.locationLatitude = locationLatitude
        self.locationLongitude = locationLongitude
        self.email = email
        self.phone = phone
        self.lastSeenDate = lastSeenDate
        self.status = status
        self.reward = reward
    }
}
