import Foundation
import Testing
@testable import PetSpotClient

@Suite struct ReportDraftTests {
    let today = CalendarDay(year: 2025, month: 11, day: 20)!

    @Test func aCompleteDraftHasNoStep3Problems() {
        #expect(Samples.draft().animalDescriptionProblems(today: today).isEmpty)
    }

    @Test func dateMayBeTodayButNotTomorrow() {
        var draft = Samples.draft()
        draft.lastSeenDate = today
        #expect(draft.animalDescriptionProblems(today: today).isEmpty)
        draft.lastSeenDate = CalendarDay(year: 2025, month: 11, day: 21)
        #expect(draft.animalDescriptionProblems(today: today).map(\.field) == ["lastSeenDate"])
        draft.lastSeenDate = nil
        #expect(draft.animalDescriptionProblems(today: today).map(\.field) == ["lastSeenDate"])
    }

    @Test func speciesRaceAndGenderAreRequired() {
        var draft = Samples.draft()
        draft.species = " "
        draft.race = ""
        draft.sex = ""
        #expect(draft.animalDescriptionProblems(today: today).map(\.field) == ["species", "breed", "sex"])
    }

    @Test(arguments: [(-1, false), (0, true), (40, true), (41, false)])
    func ageBoundaries(_ age: Int, _ valid: Bool) {
        var draft = Samples.draft()
        draft.age = age
        #expect(draft.animalDescriptionProblems(today: today).isEmpty == valid)
    }

    @Test(arguments: [(-90.0, true), (90.0, true), (-90.0001, false), (90.0001, false), (Double.nan, false)])
    func latitudeBoundaries(_ latitude: Double, _ valid: Bool) {
        var draft = Samples.draft()
        draft.latitude = latitude
        #expect(draft.animalDescriptionProblems(today: today).isEmpty == valid)
    }

    @Test(arguments: [(-180.0, true), (180.0, true), (-180.5, false), (180.5, false), (Double.infinity, false)])
    func longitudeBoundaries(_ longitude: Double, _ valid: Bool) {
        var draft = Samples.draft()
        draft.longitude = longitude
        #expect(draft.animalDescriptionProblems(today: today).isEmpty == valid)
    }

    @Test func locationMayBeLeftBlankInStep3() {
        var draft = Samples.draft()
        draft.latitude = nil
        draft.longitude = nil
        #expect(draft.animalDescriptionProblems(today: today).isEmpty)
    }

    @Test func descriptionAllows500Characters() {
        var draft = Samples.draft()
        draft.description = String(repeating: "x", count: 500)
        #expect(draft.animalDescriptionProblems(today: today).isEmpty)
        draft.description += "x"
        #expect(draft.animalDescriptionProblems(today: today).map(\.field) == ["description"])
    }

    @Test func submissionNeedsPhotoRequiredFieldsAndAContact() {
        #expect(Samples.draft().submissionProblems().isEmpty)
        let empty = ReportDraft()
        #expect(empty.submissionProblems().map(\.field) == ["photo", "lastSeenDate", "species", "sex", "locationLatitude", "locationLongitude", "contact"])
        #expect(empty.newAnnouncement() == nil)
        var emptyPhoto = Samples.draft()
        emptyPhoto.photo = PhotoAttachment(data: Data(), mimeType: "image/png")
        #expect(emptyPhoto.submissionProblems().map(\.field) == ["photo"])
    }

    @Test func oneContactIsEnoughForTheAPI() {
        #expect(Samples.draft(phone: "", email: "owner@example.com").submissionProblems().isEmpty)
        #expect(Samples.draft(phone: "1234567", email: "  ").submissionProblems().isEmpty)
    }

    @Test func newAnnouncementTrimsAndDropsBlankOptionals() {
        var draft = Samples.draft(phone: "", email: "  owner@example.com ", reward: "")
        draft.species = " dog "
        draft.description = "   "
        draft.microchipNumber = ""
        let body = draft.newAnnouncement()
        #expect(body == NewAnnouncement(
            petName: "Rex", species: "dog", breed: "beagle", sex: "MALE", age: 3, description: nil,
            microchipNumber: nil, locationLatitude: 52.2297, locationLongitude: 21.0122,
            email: "owner@example.com", phone: nil, lastSeenDate: "2025-11-18", status: "MISSING", reward: nil
        ))
    }

    @Test func rewardIsSentVerbatim() {
        #expect(Samples.draft(reward: " $250 gift card + hugs ").newAnnouncement()?.reward == " $250 gift card + hugs ")
    }
}
