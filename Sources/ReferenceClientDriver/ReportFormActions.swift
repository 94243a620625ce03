import ScenarioEngine
import PetSpotClient

/// The protocol's submission actions on a report flow's form, the same for every flow of the reference client.
@MainActor
enum ReportFormActions {
    /// What a form action led to.
    enum Result {
        /// Continue, a double tap or Try Again ran, with this outcome.
        case submitted(SubmitOutcome)
        /// Cancel dismissed the alert.
        case cancelled
    }

    /// Performs `action` on `form` when it is a submission action (submit, double tap, Try Again, Cancel); nil otherwise.
    static func perform(_ action: ClientAction, on form: some ReportForm) async throws(DriverError) -> Result? {
        switch action {
        case .submit:
            return .submitted(await form.continueTapped())
        case .doubleTapContinue:
            // The second tap lands while the first submission runs, as a quick double tap does.
            let second = Task { @MainActor in await form.continueTapped() }
            let first = await form.continueTapped()
            let other = await second.value
            return .submitted(first == .ignored ? other : first)
        case .retry:
            guard form.alert != nil else { throw DriverError("\"Try Again\" was tapped but no failure alert is shown") }
            return .submitted(await form.tryAgainTapped())
        case .cancel:
            guard form.alert != nil else { throw DriverError("\"Cancel\" was tapped but no failure alert is shown") }
            form.cancelTapped()
            return .cancelled
        default:
            return nil
        }
    }
}
