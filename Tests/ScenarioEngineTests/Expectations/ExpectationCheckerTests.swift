import ContractKit
import Foundation
import Testing

@testable import ScenarioEngine

@Suite struct ExpectationCheckerTests {
    static func step(_ expect: String, action: String = #""action": "submit""#) throws -> Step {
        try EngineTestSupport.parse(#"{"name": "n", "report": "default", "steps": [{\#(action), "expect": \#(expect)}]}"#).steps[0]
    }

    static func record(_ seq: Int, _ contract: String, path: String, status: Int? = 201, user: String? = nil) -> JournalRecord {
        JournalRecord(sequence: seq, method: "POST", path: path, contract: contract, status: status, authUser: user, fault: nil)
    }

    @Test func basicAuthUserMustBeTheIdInThePathAndThatIdMustExist() throws {
        let checker = ExpectationChecker(step: try Self.step(#"{"journal": {"authUserIsCreatedId": true}}"#))
        let path = "/api/v1/announcements/abc/photos"
        #expect(checker.checkJournal(stepRecords: [Self.record(2, "uploadPhoto", path: path, user: "abc")], announcementCount: nil, existingIDs: ["abc"]).isEmpty)
        let wrongUser = checker.checkJournal(stepRecords: [Self.record(2, "uploadPhoto", path: path, user: "owner")], announcementCount: nil, existingIDs: ["abc"])
        #expect(wrongUser.map(\.description) == ["Basic auth user of #2: expected the created record's id abc, got \"owner\""])
        let unknown = checker.checkJournal(stepRecords: [Self.record(2, "uploadPhoto", path: path, user: "abc")], announcementCount: nil, existingIDs: [])
        #expect(unknown.first?.subject == "photo upload target of #2")
        let none = checker.checkJournal(stepRecords: [], announcementCount: nil, existingIDs: [])
        #expect(none.first?.expected == "at least one upload (uploadPhoto) to check")
    }

    @Test func callsOrderCountAndNoRequestsAreExact() throws {
        let records = [Self.record(1, "createAnnouncement", path: "/api/v1/announcements"), Self.record(2, "createAnnouncement", path: "/api/v1/announcements")]
        let calls = ExpectationChecker(step: try Self.step(#"{"journal": {"calls": {"createAnnouncement": 1, "uploadPhoto": 0}, "announcements": 1}}"#))
        #expect(calls.checkJournal(stepRecords: records, announcementCount: 2, existingIDs: []).map(\.description) == [
            "calls to createAnnouncement: expected 1, got 2", "announcements on the backend: expected 1, got 2",
        ])
        let quiet = ExpectationChecker(step: try Self.step(#"{"journal": {"noRequests": true}}"#))
        #expect(quiet.checkJournal(stepRecords: records, announcementCount: nil, existingIDs: []).first?.actual ==
            "2: #1 POST /api/v1/announcements (createAnnouncement) → 201; #2 POST /api/v1/announcements (createAnnouncement) → 201")
        let order = ExpectationChecker(step: try Self.step(#"{"journal": {"order": ["createAnnouncement", "uploadPhoto"]}}"#))
        #expect(order.checkJournal(stepRecords: records, announcementCount: nil, existingIDs: []).first?.actual == "createAnnouncement → createAnnouncement")
    }

    @Test func anInvalidOutcomeComparesFieldMessagesExactlyAndForbidsAnAlert() throws {
        let checker = ExpectationChecker(step: try Self.step(#"{"outcome": "invalid", "fields": {"phone": "Enter at least 7 digits"}}"#))
        let good = ClientObservation(outcome: .invalid, fieldErrors: ["phone": "Enter at least 7 digits"], screen: "form")
        #expect(checker.check(good, expectedInputs: [:]).isEmpty)
        let extra = ClientObservation(outcome: .invalid, alert: ObservedAlert(kind: "generic", message: "x"),
                                      fieldErrors: ["phone": "Enter at least 7 digits", "email": "Bad"], screen: "form")
        #expect(Set(checker.check(extra, expectedInputs: [:]).map(\.subject)) == ["alert", "field messages"])
    }

    /// A field the scenario typed into beyond phone, email and reward (the found flow's caregiver's phone) must survive
    /// a failure too.
    @Test func inputsIntactCoversEveryFieldTypedInto() throws {
        let checker = ExpectationChecker(step: try Self.step(#"{"outcome": "failure", "inputsIntact": true}"#))
        let typed = ["phone": "1234567", "email": "a@b.co", "reward": "", "caregiverPhone": "600 700 800"]
        let kept = ClientObservation(outcome: .failure, inputs: typed, screen: "form")
        #expect(checker.check(kept, expectedInputs: typed).isEmpty)
        var lost = typed
        lost["caregiverPhone"] = ""
        let cleared = ClientObservation(outcome: .failure, inputs: lost, screen: "form")
        #expect(checker.check(cleared, expectedInputs: typed).map(\.subject) == ["input caregiverPhone (must stay intact)"])
    }

    @Test func aSuccessImpliesTheSummaryScreenAndAFailureTheForm() throws {
        let success = ExpectationChecker(step: try Self.step(#"{"outcome": "success"}"#))
        #expect(success.check(ClientObservation(outcome: .success, screen: "form"), expectedInputs: [:]).map(\.subject) == ["screen"])
        let failure = ExpectationChecker(step: try Self.step(#"{"outcome": "failure"}"#))
        #expect(failure.check(ClientObservation(outcome: .failure, screen: "form"), expectedInputs: [:]).isEmpty)
    }

    @Test func detailsPresentationIsCheckedKeyByKey() throws {
        let checker = ExpectationChecker(step: try Self.step(#"{"details": {"state": "loaded", "presentation": {"status": "FOUND", "statusColor": "blue"}}}"#, action: #""action": "loadDetails", "id": "x""#))
        let shown = ClientObservation(outcome: .success, details: ObservedDetails(state: "loaded", presentation: ["status": "FOUND", "statusColor": "red"]))
        #expect(checker.check(shown, expectedInputs: [:]).map(\.description) == ["details statusColor: expected \"blue\", got \"red\""])
    }

    @Test func httpAnswersAreCheckedByStatusCodeHeaderAndPointer() throws {
        let checker = ExpectationChecker(step: try Self.step(
            #"{"status": 201, "errorCode": "X", "headers": {"request-id": "^[a-z]{3}$"}, "bodyMatches": {"/id": "^[0-9]+$"}, "bodyEquals": {"/photoUrl": null}}"#,
            action: #""action": "http", "request": {"method": "GET", "path": "/"}"#))
        let answer = HTTPAnswer(status: 400, headers: [(name: "Request-Id", value: "abcd")], body: Data(#"{"id": "x1", "photoUrl": "/images/a.png"}"#.utf8))
        #expect(checker.check(answer).map(\.subject) == ["status", "error code", "header request-id", "body /id", "body /photoUrl"])
    }
}
