import Foundation

/// A report across its steps: chip, photo, animal description, contact (the missing flow's four; the found flow has no
/// step of its own for the chip and no reward).
public struct ReportDraft: Sendable, Equatable {
    /// Step 1: the microchip number, digits only, if the pet has one.
    public var microchipNumber: String?
    /// Step 2: the photo; required to submit.
    public var photo: PhotoAttachment?
    /// Step 3: the day the pet disappeared; the flow defaults it to today.
    public var lastSeenDate: CalendarDay?
    /// Step 3: the species (required).
    public var species: String
    /// Step 3: the race, sent as `breed` (required by step 3, optional for the API).
    public var race: String
    /// Step 3: the gender, sent as `sex`, e.g. `MALE` or `FEMALE` (required).
    public var sex: String
    /// Step 3: the age in whole years, 0...40, if known.
    public var age: Int?
    /// Step 3: where the pet was last seen, -90...90.
    public var latitude: Double?
    /// Step 3: where the pet was last seen, -180...180.
    public var longitude: Double?
    /// Step 3: free text, at most 500 characters.
    public var description: String
    /// The pet's name, if the flow collects it.
    public var petName: String?
    /// Step 4: phone, email and reward as typed.
    public var contact: ContactDetails
    /// The announcement's status, which the flow sets: `MISSING` for a missing pet, `FOUND` for a found one.
    public var status = "MISSING"

    /// The longest description step 3 accepts.
    public static let descriptionLimit = 500
    /// The accepted age range in whole years.
    public static let ageRange = 0...40

    /// Creates a draft; everything defaults to empty.
    public init(
        microchipNumber: String? = nil, photo: PhotoAttachment? = nil, lastSeenDate: CalendarDay? = nil,
        species: String = "", race: String = "", sex: String = "", age: Int? = nil,
        latitude: Double? = nil, longitude: Double? = nil, description: String = "",
        petName: String? = nil, contact: ContactDetails = ContactDetails()
    ) {
        self.microchipNumber = microchipNumber
        self.photo = photo
        self.lastSeenDate = lastSeenDate
        self.species = species
        self.race = race
        self.sex = sex
        self.age = age
        self.latitude = latitude
        self.longitude = longitude
        self.description = description
        self.petName = petName
        self.contact = contact
    }

    /// Step 3's rules on Continue; `today` is injected so "not in the future" is testable. `[]` means valid.
    public func animalDescriptionProblems(today: CalendarDay) -> [DraftProblem] {
        var problems: [DraftProblem] = []
        if let date = lastSeenDate {
            if date > today { problems.append(DraftProblem(field: "lastSeenDate", message: "The date of disappearance cannot be in the future")) }
        } else {
            problems.append(DraftProblem(field: "lastSeenDate", message: "Choose the date of disappearance"))
        }
        if Self.isBlank(species) { problems.append(DraftProblem(field: "species", message: "Choose the animal species")) }
        if Self.isBlank(race) { problems.append(DraftProblem(field: "breed", message: "Choose the animal race")) }
        if Self.isBlank(sex) { problems.append(DraftProblem(field: "sex", message: "Choose the animal gender")) }
        if let age, !Self.ageRange.contains(age) {
            problems.append(DraftProblem(field: "age", message: "Enter an age from 0 to 40 years"))
        }
        if let latitude, !(latitude.isFinite && (-90...90).contains(latitude)) {
            problems.append(DraftProblem(field: "locationLatitude", message: "Enter a latitude from -90 to 90"))
        }
        if let longitude, !(longitude.isFinite && (-180...180).contains(longitude)) {
            problems.append(DraftProblem(field: "locationLongitude", message: "Enter a longitude from -180 to 180"))
        }
        if description.count > Self.descriptionLimit {
            problems.append(DraftProblem(field: "description", message: "Keep the description to 500 characters or fewer"))
        }
        return problems
    }

    /// What the API needs that the draft lacks (photo, required fields, a contact). `[]` means submittable.
    public func submissionProblems() -> [DraftProblem] {
        var problems: [DraftProblem] = []
        if photo?.data.isEmpty ?? true { problems.append(DraftProblem(field: "photo", message: "Add a photo of the pet")) }
        if lastSeenDate == nil { problems.append(DraftProblem(field: "lastSeenDate", message: "Choose the date of disappearance")) }
        if Self.isBlank(species) { problems.append(DraftProblem(field: "species", message: "Choose the animal species")) }
        if Self.isBlank(sex) { problems.append(DraftProblem(field: "sex", message: "Choose the animal gender")) }
        if latitude == nil { problems.append(DraftProblem(field: "locationLatitude", message: "Enter where the pet was last seen")) }
        if longitude == nil { problems.append(DraftProblem(field: "locationLongitude", message: "Enter where the pet was last seen")) }
        if Self.isBlank(contact.phone) && Self.isBlank(contact.email) {
            problems.append(DraftProblem(field: "contact", message: "Enter a phone number or an email address"))
        }
        return problems + MutantBody.problems(self)
    }

    /// The create request body, or `nil` when ``submissionProblems()`` is not empty.
    public func newAnnouncement() -> NewAnnouncement? {
        guard submissionProblems().isEmpty, let lastSeenDate, let latitude, let longitude else { return nil }
        let body = NewAnnouncement(
            petName: Self.nonBlank(petName), species: Self.trimmed(species), breed: Self.nonBlank(race),
            sex: Self.trimmed(sex), age: age, description: Self.nonBlank(description),
            microchipNumber: Self.nonBlank(microchipNumber), locationLatitude: latitude, locationLongitude: longitude,
            email: Self.nonBlank(contact.email), phone: Self.nonBlank(contact.phone), lastSeenDate: lastSeenDate.iso,
            status: status, reward: contact.reward.isEmpty ? nil : contact.reward
        )
        return MutantBody.apply(body, draft: self)
    }

    static func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func isBlank(_ text: String) -> Bool {
        trimmed(text).isEmpty
    }

    static func nonBlank(_ text: String?) -> String? {
        guard let text else { return nil }
        let value = trimmed(text)
        return value.isEmpty ? nil : value
    }
}
