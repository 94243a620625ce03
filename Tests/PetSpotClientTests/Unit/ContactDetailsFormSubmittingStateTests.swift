import Testing
@testable import PetSpotClient

/// A submitter that waits until released, to observe the form mid-submission.
actor GatedSubmitter: ReportSubmitting {
    private var gate: CheckedContinuation<Void, Never>?
    private var started: CheckedContinuation<Void, Never>?
    private var hasStarted = false

    func submit(_ draft: ReportDraft) async throws(SubmissionError) -> SubmissionReceipt {
        hasStarted = true
        started?.resume()
        started = nil
        await withCheckedContinuation { gate = $0 }
        return Samples.receipt
    }

    func waitUntilStarted() async {
        if hasStarted { return }
        await withCheckedContinuation { started = $0 }
    }

    func release() {
        gate?.resume()
        gate = nil
    }
}

@MainActor
@Suite struct ContactDetailsFormSubmittingStateTests {
    @Test func isSubmittingWhileRunningAndASecondTapIsIgnored() async {
        let submitter = GatedSubmitter()
        let form = ContactDetailsForm(draft: Samples.draft(), submitter: submitter)
        let first = Task { await form.continueTapped() }
        await submitter.waitUntilStarted()
        #expect(form.isSubmitting == true)
        #expect(await form.continueTapped() == .ignored)
        await submitter.release()
        #expect(await first.value == .sent(Samples.receipt))
        #expect(form.isSubmitting == false)
    }
}
