import ContractKit
import ContractModel
import Foundation
import ScenarioEngine
import PetSpotClient

/// One scenario's client of the missing flow: the form and the details screen live on the main actor, as in the app.
@MainActor
final class PetSpotClientSession: ClientSession {
    let api: AnnouncementAPI
    let form: ContactDetailsForm
    let browsing: PetSpotBrowsing
    var screen = "form"
    let analytics = RecordingAnalytics()

    init(api: AnnouncementAPI, draft: ReportDraft, submitter: any ReportSubmitting) {
        self.api = api
        browsing = PetSpotBrowsing(api: api)
        form = ContactDetailsForm(draft: draft, submitter: submitter, analytics: analytics)
        form.onReportSent = { [weak self] _ in self?.screen = "summary" }
    }

    func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation {
        switch try await ReportFormActions.perform(action, on: form) {
        case .submitted(let outcome)?: return observe(outcome)
        case .cancelled?: return formObservation(.cancelled)
        case nil: break
        }
        switch action {
        case .editField(let field, let value):
            switch field {
            case "phone": form.phone = value
            case "email": form.email = value
            default: form.enterReward(value)
            }
            return formObservation(.edited)
        case .deviceOffline, .deviceOnline:
            api.setDeviceOffline(action == .deviceOffline)
            return ClientObservation(outcome: .done)
        case .loadDetails, .retryDetails, .list:
            return try await browsing.perform(action)
        case .submit, .doubleTapContinue, .retry, .cancel:
            preconditionFailure("ReportFormActions performs \(action.name)")
        }
    }

    func close() async {
        // The origin is the scenario's own backend, but a port can be reused by a later scenario: leave it online.
        api.setDeviceOffline(false)
    }

    private func observe(_ outcome: SubmitOutcome) -> ClientObservation {
        switch outcome {
        case .invalid:
            return formObservation(.invalid)
        case .sent(let receipt):
            var o = formObservation(.success)
            o.managementPassword = receipt.managementPassword
            return o
        case .failed:
            return formObservation(.failure)
        case .ignored:
            return formObservation(.failure)
        }
    }

    private func formObservation(_ outcome: ClientOutcome) -> ClientObservation {
        var errors: [String: String] = [:]
        if let e = form.phoneError { errors["phone"] = e }
        if let e = form.emailError { errors["email"] = e }
        return ClientObservation(
            outcome: outcome, alert: form.alert.map { ObservedAlert(kind: $0.rawValue, message: $0.message, buttons: AlertKind.buttonTitles) },
            fieldErrors: outcome == .invalid ? errors : [:],
            inputs: ["phone": form.phone, "email": form.email, "reward": form.reward], screen: screen,
            cause: form.alert == nil ? nil : form.lastFailure.map { Self.observed(ErrorMapping.cause(for: $0)) },
            analytics: analytics.drain())
    }

    /// PetSpotClient's cause in the engine's terms.
    nonisolated static func observed(_ cause: FailureCause) -> ObservedCause {
        let kind: ObservedCause.Kind
        switch cause.kind {
        case .urlError: kind = .urlError
        case .httpStatus: kind = .httpStatus
        case .decoding: kind = .decoding
        case .other: kind = .other
        }
        return ObservedCause(kind: kind, domain: cause.domain, code: cause.code, status: cause.status, detail: cause.detail, decodingPath: cause.decodingPath)
    }
}
