import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import PetSpotClient

/// The found flow's contact step: both contacts required, a phone's digits counted whatever else it holds (KAN-34
/// Clarifications: "allow +, ignore other chars"), the caregiver's phone only when not empty, the status FOUND without a reward, the missing flow's alerts, and a success that closes the flow.
@MainActor
@Suite struct FoundContactFormTests {
    @Test(arguments: [
        ("(12) 345-6789", true),      // 9 digits; every other character is ignored
        ("+48 (123) 456-789", true),
        ("123456", false),            // 6 digits
        ("12345678901", true),        // 11
        ("123456789012", false),      // 12
        ("123.456.789", true),        // dots are ignored too
        ("600a700b800", true),        // and letters: 9 digits after sanitization
        ("", false),                  // required
        ("  1234567 ", true),
        ("\t0700800", true),
    ])
    func phone(_ input: String, _ valid: Bool) {
        #expect(FoundContactValidation.isValidPhone(input) == valid, "phone \"\(input)\"")
    }

    @Test func bothContactsAreRequiredWithTheFoundFlowsMessages() async {
        let submitter = ScriptedSubmitter([.success(Samples.receipt)])
        let form = FoundContactForm(draft: Samples.draft(phone: "", email: ""), submitter: submitter)
        #expect(await form.continueTapped() == .invalid([
            DraftProblem(field: "phone", message: "Enter a valid phone number"),
            DraftProblem(field: "email", message: "Enter a valid email address"),
        ]))
        form.email = "finder@example.com"
        #expect(await form.continueTapped() == .invalid([DraftProblem(field: "phone", message: "Enter a valid phone number")]))
        #expect(form.errors == ["phone": "Enter a valid phone number"])
        #expect(await submitter.submitted.isEmpty)
    }

    @Test func theCaregiversPhoneIsCheckedOnlyWhenGiven() async {
        let form = FoundContactForm(draft: Samples.draft(), submitter: ScriptedSubmitter([.success(Samples.receipt)]))
        form.caregiverPhone = "12"
        #expect(await form.continueTapped() == .invalid([DraftProblem(field: "caregiverPhone", message: "Enter a valid phone number")]))
        // Spaces are something typed (the field is not empty) and hold no digit (KAN-34 align FR-012, as the real app).
        form.caregiverPhone = "  "
        #expect(await form.continueTapped() == .invalid([DraftProblem(field: "caregiverPhone", message: "Enter a valid phone number")]))
        form.caregiverPhone = ""
        #expect(await form.continueTapped() == .sent(Samples.receipt))
    }

    @Test func aSuccessSendsFoundWithoutARewardAndClosesTheFlow() async throws {
        let submitter = ScriptedSubmitter([.success(Samples.receipt)])
        let form = FoundContactForm(draft: Samples.draft(reward: "100 PLN"), submitter: submitter)
        #expect(await form.continueTapped() == .sent(Samples.receipt))
        #expect(form.isClosed)
        let sent = try #require(await submitter.submitted.first)
        #expect(sent.status == "FOUND")
        #expect(sent.newAnnouncement()?.status == "FOUND")
        #expect(sent.newAnnouncement()?.reward == nil)
        // A closed flow has no Continue left to tap.
        #expect(await form.continueTapped() == .ignored)
        #expect(await submitter.submitted.count == 1)
    }

    @Test func aFailureShowsTheAlertKeepsTheInputsAndTryAgainSendsEverythingAgain() async {
        let submitter = ScriptedSubmitter([.failure(Samples.serverError), .success(Samples.receipt)])
        let form = FoundContactForm(draft: Samples.draft(), submitter: submitter)
        #expect(await form.continueTapped() == .failed(.generic))
        #expect(form.alert == .generic && !form.isClosed)
        #expect(form.phone == "+48123456789" && form.email == "owner@example.com")
        #expect(await form.tryAgainTapped() == .sent(Samples.receipt))
        #expect(form.alert == nil && form.isClosed)
        #expect(await submitter.submitted.count == 2)
    }

    @Test func cancelDismissesTheAlertAndKeepsTheFlowOpen() async {
        let form = FoundContactForm(draft: Samples.draft(), submitter: ScriptedSubmitter([.failure(Samples.offline)]))
        #expect(await form.continueTapped() == .failed(.noConnection))
        form.cancelTapped()
        #expect(form.alert == nil && !form.isClosed)
        #expect(form.lastFailure != nil)
    }
}
