import Foundation
import Testing
@testable import PetSpotClient

@Suite struct PetDetailsPresentationTests {
    static func announcement(status: String = "MISSING", photoUrl: String? = "/images/a.jpeg", microchip: String? = "123456789012", reward: String? = "500 PLN", sex: String = "MALE") -> Announcement {
        Announcement(
            id: "a", petName: "Rex", species: "dog", breed: nil, sex: sex, age: nil, description: nil,
            microchipNumber: microchip, locationLatitude: nil, locationLongitude: nil, lastSeenDate: "2025-11-18",
            email: "owner@email.com", phone: nil, photoUrl: photoUrl, status: status, reward: reward
        )
    }

    @Test(arguments: [
        ("ACTIVE", "MISSING", StatusBadge.Color.red),
        ("MISSING", "MISSING", .red),
        ("FOUND", "FOUND", .blue),
        ("CLOSED", "CLOSED", .gray),
        ("found", "FOUND", .blue),
        ("ARCHIVED", "ARCHIVED", .gray),
    ])
    func status(_ api: String, _ text: String, _ color: StatusBadge.Color) {
        let badge = PetDetailsPresentation(announcement: Self.announcement(status: api)).status
        #expect(badge == StatusBadge(text: text, color: color))
    }

    @Test func fieldsAndPlaceholders() {
        let base = URL(string: "http://127.0.0.1:8080")!
        let view = PetDetailsPresentation(announcement: Self.announcement()) { URL(string: $0, relativeTo: base)?.absoluteURL }
        #expect(view.photo == .image(URL(string: "http://127.0.0.1:8080/images/a.jpeg")!))
        #expect(view.microchipNumber == "123-456-789-012")
        #expect(view.lastSeenDate == "Nov 18, 2025")
        #expect(view.sex == "♂ Male")
        #expect(view.reward == "500 PLN")
        #expect(view.breed == "—")
        #expect(view.age == "—")
        #expect(view.location == "—")
        #expect(view.description == "—")
        #expect(view.phone == nil)
        #expect(view.email == "owner@email.com")
        #expect(view.species == "dog")
    }

    @Test func presentValues() {
        let announcement = Announcement(
            id: "b", species: "cat", breed: "Siamese", sex: "FEMALE", age: 1, description: "Shy",
            locationLatitude: 52.2297, locationLongitude: 21.0122, lastSeenDate: "2025-01-05",
            phone: "+48 123 456 789", status: "FOUND"
        )
        let view = PetDetailsPresentation(announcement: announcement)
        #expect(view.sex == "♀ Female")
        #expect(view.age == "1 year")
        #expect(view.breed == "Siamese")
        #expect(view.location == "52.22970, 21.01220")
        #expect(view.description == "Shy")
        #expect(view.phone == "+48 123 456 789")
        #expect(view.lastSeenDate == "Jan 5, 2025")
        #expect(view.reward == nil)
        #expect(view.microchipNumber == "—")
        #expect(view.photo == .unavailable)
        #expect(PetDetailsPresentation.imageUnavailableText == "Image not available")
    }

    @Test func ageIsPluralisedAndZeroIsShown() {
        let zero = Announcement(id: "z", species: "dog", sex: "MALE", age: 0, lastSeenDate: "2025-11-18", status: "MISSING")
        #expect(PetDetailsPresentation(announcement: zero).age == "0 years")
    }

    @Test(arguments: [("123456789012", "123-456-789-012"), ("12345", "123-45"), ("ABC123", "ABC123"), ("000000000000", "000-000-000-000")])
    func microchip(_ raw: String, _ shown: String) {
        #expect(PetDetailsPresentation.formatMicrochip(raw) == shown)
    }

    @Test func dateIsFixedFormatAndUnparseableDatesAreShownAsSent() {
        #expect(PetDetailsPresentation.formatDate("2025-12-31") == "Dec 31, 2025")
        #expect(PetDetailsPresentation.formatDate("yesterday") == "yesterday")
    }

    @Test func blankOptionalTextCountsAsAbsent() {
        let view = PetDetailsPresentation(announcement: Self.announcement(photoUrl: "", microchip: " ", reward: ""))
        #expect(view.photo == .unavailable)
        #expect(view.microchipNumber == "—")
        #expect(view.reward == nil)
    }

    @Test func aFailingPhotoBecomesUnavailable() {
        var view = PetDetailsPresentation(announcement: Self.announcement())
        view.photoFailedToLoad()
        #expect(view.photo == .unavailable)
    }

    @Test func unknownSexIsShownAsSent() {
        #expect(PetDetailsPresentation.formatSex("UNKNOWN") == "UNKNOWN")
        #expect(PetDetailsPresentation.formatSex("") == "—")
    }
}
