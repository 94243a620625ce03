import ContractKit
import Foundation
import ScenarioEngine
import PetSpotClient

/// One scenario's client of the found flow (`reportFound`): PetSpotClient's FoundContactForm over the report's earlier
/// steps, with the same details and list screens as the missing flow. A success closes the flow and shows no password.
@MainActor
final class PetSpotFoundFlowSession: ClientSession {
    let api: AnnouncementAPI
    let form: FoundContactForm
    let browsing: PetSpotBrowsing

    init(api: AnnouncementAPI, draft: ReportDraft, submitter: any ReportSubmitting, report: ReportData) {
        self.api = api
        browsing = PetSpotBrowsing(api: api)
        form = FoundContactForm(draft: draft, submitter: submitter)
        form.caregiverPhone = report.text("caregiverPhone")
        form.currentAddress = report.text("currentAddress")
    }

    func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation {
        switch try await ReportFormActions.perform(action, on: form) {
        case .submitted(let outcome)?: return observe(outcome)
        case .cancelled?: return observation(.cancelled)
        case nil: break
        }
        switch action {
        case .editField(let field, let value):
            switch field {
            case "phone": form.phone = value
            case "email": form.email = value
            case "caregiverPhone": form.caregiverPhone = value
            case "currentAddress": form.currentAddress = value
            default: throw DriverError("the found flow's contact step has no field \"\(field)\" to type into")
            }
            return observation(.edited)
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
        api.setDeviceOffline(false)
    }

    private func observe(_ outcome: SubmitOutcome) -> ClientObservation {
        switch outcome {
        case .invalid: observation(.invalid)
        case .sent: observation(.success)
        case .failed, .ignored: observation(.failure)
        }
    }

    private func observation(_ outcome: ClientOutcome) -> ClientObservation {
        ClientObservation(
            outcome: outcome, alert: form.alert.map { ObservedAlert(kind: $0.rawValue, message: $0.message, buttons: AlertKind.buttonTitles) },
            fieldErrors: outcome == .invalid ? form.errors : [:],
            inputs: ["phone": form.phone, "email": form.email, "caregiverPhone": form.caregiverPhone, "currentAddress": form.currentAddress], screen: form.isClosed ? "closed" : "form",
            cause: form.alert == nil ? nil : form.lastFailure.map { PetSpotClientSession.observed(ErrorMapping.cause(for: $0)) },
            analytics: [])
    }
}
