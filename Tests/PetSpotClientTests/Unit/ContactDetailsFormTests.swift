import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import PetSpotClient

@MainActor
@Suite struct ContactDetailsFormTests {
    @Test func validInputsSubmitOnceAndHandOverThePassword() async {
        let submitter = ScriptedSubmitter([.success(Samples.receipt)])
        let analytics = RecordingAnalytics()
        var passwords: [String] = []
        let form = ContactDetailsForm(draft: Samples.draft(), submitter: submitter, analytics: analytics) { passwords.append($0) }

        let outcome = await form.continueTapped()

        #expect(outcome == .sent(Samples.receipt))
        #expect(passwords == ["467432"])
        #expect(analytics.events == [.step4Completed])
        #expect(analytics.events.first?.name == "missing_pet.step4_completed")
        #expect(form.alert == nil)
        #expect(form.isSubmitting == false)
        #expect(await submitter.submitted.count == 1)
    }

    @Test func validationRunsOnlyOnContinueAndBlocksSubmission() async {
        let submitter = ScriptedSubmitter([.success(Samples.receipt)])
        let form = ContactDetailsForm(draft: Samples.draft(phone: "123", email: "owner@"), submitter: submitter)
        #expect(form.phoneError == nil && form.emailError == nil)

        let outcome = await form.continueTapped()

        #expect(outcome == .invalid([
            DraftProblem(field: "phone", message: "Enter at least 7 digits"),
            DraftProblem(field: "email", message: "Enter a valid email address"),
        ]))
        #expect(form.phoneError == "Enter at least 7 digits")
        #expect(form.emailError == "Enter a valid email address")
        #expect(await submitter.submitted.isEmpty)

        // Editing does not clear or re-run validation; the next Continue does.
        form.phone = "+48 123-456-789"
        #expect(form.phoneError == "Enter at least 7 digits")
        let second = await form.continueTapped()
        #expect(second == .invalid([DraftProblem(field: "email", message: "Enter a valid email address")]))
        #expect(form.phoneError == nil)
        form.email = " Owner@Example.COM "
        #expect(await form.continueTapped() == .sent(Samples.receipt))
        #expect(form.emailError == nil)
    }

    @Test func rewardAcceptsExactly120CharactersAndRejectsThe121st() {
        let form = ContactDetailsForm(draft: Samples.draft(), submitter: ScriptedSubmitter([]))
        let limit = String(repeating: "a", count: 120)
        form.reward = limit
        #expect(form.reward.count == 120)
        form.reward = limit + "b"
        #expect(form.reward == limit)
        #expect(form.enterReward(limit + "b") == false)
        #expect(form.reward == limit)
        #expect(form.enterReward("$250 gift card + hugs") == true)
        #expect(form.reward == "$250 gift card + hugs")
        form.reward = ""
        #expect(form.reward == "")
    }

    @Test func rewardCountsCharactersNotBytes() {
        let form = ContactDetailsForm(draft: Samples.draft(), submitter: ScriptedSubmitter([]))
        let emoji = String(repeating: "🐶", count: 120)
        form.reward = emoji
        #expect(form.reward == emoji)
        form.reward = emoji + "🐶"
        #expect(form.reward == emoji)
    }

    @Test func offlineFailureShowsNoConnectionAndKeepsEveryInput() async {
        let submitter = ScriptedSubmitter([.failure(Samples.offline)])
        var sent = 0
        let analytics = RecordingAnalytics()
        let form = ContactDetailsForm(draft: Samples.draft(reward: "500 PLN"), submitter: submitter, analytics: analytics) { _ in sent += 1 }
        form.phone = "+48 123-456-789"

        let outcome = await form.continueTapped()

        #expect(outcome == .failed(.noConnection))
        #expect(form.alert == .noConnection)
        #expect(form.alert?.message == "No connection. Please check your network and try again.")
        #expect(form.isSubmitting == false)
        #expect(sent == 0)
        #expect(analytics.events.isEmpty)
        form.cancelTapped()
        #expect(form.alert == nil)
        #expect(form.phone == "+48 123-456-789")
        #expect(form.email == "owner@example.com")
        #expect(form.reward == "500 PLN")
        #expect(form.draft == Samples.draft(phone: "+48 123-456-789", reward: "500 PLN"))
    }

    @Test func backendFailureShowsGeneric() async {
        let form = ContactDetailsForm(draft: Samples.draft(), submitter: ScriptedSubmitter([.failure(Samples.serverError)]))
        #expect(await form.continueTapped() == .failed(.generic))
        #expect(form.alert?.message == "Something went wrong. Please try again later.")
        if case .photoUploadFailed = form.lastFailure {} else { Issue.record("lastFailure should keep the cause") }
    }

    @Test func tryAgainRerunsTheWholeSubmission() async {
        let submitter = ScriptedSubmitter([.failure(Samples.serverError), .success(Samples.receipt)])
        var passwords: [String] = []
        let form = ContactDetailsForm(draft: Samples.draft(), submitter: submitter) { passwords.append($0) }

        #expect(await form.continueTapped() == .failed(.generic))
        #expect(await form.tryAgainTapped() == .sent(Samples.receipt))

        #expect(form.alert == nil)
        #expect(passwords == ["467432"])
        let drafts = await submitter.submitted
        #expect(drafts.count == 2)
        #expect(drafts[0] == drafts[1])
    }

    @Test func eachSuccessCallsOnReportSentOnce() async {
        let second = SubmissionReceipt(announcementID: "b", managementPassword: "100000")
        let submitter = ScriptedSubmitter([.success(Samples.receipt), .success(second)])
        var passwords: [String] = []
        let analytics = RecordingAnalytics()
        let form = ContactDetailsForm(draft: Samples.draft(), submitter: submitter, analytics: analytics) { passwords.append($0) }
        await form.continueTapped()
        await form.continueTapped()
        #expect(passwords == ["467432", "100000"])
        #expect(analytics.events.count == 2)
    }

    @Test func inputsStartFromTheDraftForBackNavigation() {
        let form = ContactDetailsForm(draft: Samples.draft(phone: "555 123 456", email: "a@b.co", reward: "hugs"), submitter: ScriptedSubmitter([]))
        #expect(form.phone == "555 123 456")
        #expect(form.email == "a@b.co")
        #expect(form.reward == "hugs")
    }

    @Test func anIncompleteDraftFailsWithTheGenericAlert() async {
        var draft = Samples.draft()
        draft.photo = nil
        let form = ContactDetailsForm(draft: draft, submitter: ScriptedSubmitter([.failure(.invalidDraft(draft.submissionProblems()))]))
        #expect(await form.continueTapped() == .failed(.generic))
    }
}
