// Test doubles shared by test targets; @testable needs a debug build, so release builds compile this module empty.
#if DEBUG
import ContractKit
import Foundation
import PetSpotClient

@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// Clients of the iOS found flow (069 and KAN-34), which the reference client does not have: a photo, the pet's details
/// and both contacts, the create with the status FOUND and the upload, the missing flow's alerts with Try Again and
/// Cancel, and a success that closes the flow. The doubles are written from the flow, not from the judge: they share no
/// code with `SeedInputRules` or the profile, so a double that passes proves the profile's library can be passed.
/// Each broken double changes one rule and nothing else.
enum FoundFlowClients {
    /// What a found-flow double does; the defaults follow `scenarios/ios-found-pet/profile.json`.
    struct Behaviour: Sendable {
        /// The status the create sends (KAN-34 send FR-004: FOUND).
        var status = "FOUND"
        /// Both contacts are required (KAN-34 send FR-008); `false` accepts either one, as the missing flow does.
        var requiresBothContacts = true
        /// The fewest digits a phone may have (KAN-34 align FR-010a: 7).
        var minimumPhoneDigits = 7
        /// A success shows a summary with the password instead of closing the flow (069 FR-008 closes it).
        var endsOnSummary = false
        /// The generic alert's text, when not the missing flow's (069 FR-010 keeps it).
        var genericText: String?
    }

    /// A found-flow client with `behaviour`.
    struct Driver: ClientDriver {
        let behaviour: Behaviour
        let description: String

        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            if let flow = context.flow, flow != "reportFound" {
                throw DriverError("this client reports found pets only (flow reportFound); start asked for the flow \(flow)")
            }
            let timeout = Double(context.settings.requestTimeoutMs) / 1000
            let api = AnnouncementAPI(baseURL: context.baseURL, configuration: .init(requestTimeout: timeout))
            return FoundSession(api: api, report: context.report, behaviour: behaviour)
        }
    }

    /// Follows the profile.
    static let followsTheProfile = Driver(behaviour: Behaviour(), description: "found double: follows ios-found-pet")
    /// Sends the missing flow's status (breaks the `status` sent-value rule, KAN-34 send FR-004).
    static let sendsMissing = Driver(behaviour: Behaviour(status: "MISSING"), description: "found double, broken: sends MISSING")
    /// Accepts an email without a phone (breaks the phone's `required` rule, KAN-34 send FR-008).
    static let acceptsEitherContact = Driver(behaviour: Behaviour(requiresBothContacts: false), description: "found double, broken: one contact is enough")
    /// Accepts a phone of 6 digits (breaks the phone's `digits` rule, KAN-34 align FR-010a).
    static let acceptsSixDigitPhones = Driver(behaviour: Behaviour(minimumPhoneDigits: 6), description: "found double, broken: 6-digit phones")
    /// Ends on a summary with the password (breaks `success.shows: close`, 069 FR-008).
    static let endsOnSummary = Driver(behaviour: Behaviour(endsOnSummary: true), description: "found double, broken: a success shows the summary")
    /// Shows its own text in the generic alert (breaks the generic feedback's text, 069 FR-010).
    static let ownAlertText = Driver(behaviour: Behaviour(genericText: "Oops! Please try again."), description: "found double, broken: its own alert text")

    /// One found-flow session: the contact step's inputs, the alert on screen, and the screen.
    actor FoundSession: ClientSession {
        static let phoneMessage = "Enter a valid phone number"
        static let emailMessage = "Enter a valid email address"

        let api: AnnouncementAPI
        let report: ReportData
        let behaviour: Behaviour
        var phone: String
        var email: String
        var caregiverPhone: String
        var alert: ObservedAlert?
        var cause: ObservedCause?
        var screen = "form"

        init(api: AnnouncementAPI, report: ReportData, behaviour: Behaviour) {
            self.api = api
            self.report = report
            self.behaviour = behaviour
            phone = report.text("phone")
            email = report.text("email")
            caregiverPhone = report.text("caregiverPhone")
        }

        func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation {
            switch action {
            case .submit:
                let errors = validate()
                guard errors.isEmpty else { return observe(.invalid, fieldErrors: errors) }
                return await send()
            case .retry:
                guard alert != nil else { throw DriverError("\"Try Again\" was tapped but no failure alert is shown") }
                return await send()
            case .cancel:
                guard alert != nil else { throw DriverError("\"Cancel\" was tapped but no failure alert is shown") }
                alert = nil
                cause = nil
                return observe(.cancelled)
            case .editField(let field, let value):
                switch field {
                case "phone": phone = value
                case "email": email = value
                case "caregiverPhone": caregiverPhone = value
                default: throw DriverError("the found flow's contact step has no field \"\(field)\" to type into")
                }
                return observe(.edited)
            case .deviceOffline, .deviceOnline:
                api.setDeviceOffline(action == .deviceOffline)
                return ClientObservation(outcome: .done)
            default:
                throw DriverError("the found flow has no \"\(action.name)\"", reason: .unsupported(action: action.name))
            }
        }

        func close() async { api.setDeviceOffline(false) }

        /// The contact step's rules, checked on Continue only.
        func validate() -> [String: String] {
            let phone = self.phone.trimmingCharacters(in: .whitespacesAndNewlines)
            let email = self.email.trimmingCharacters(in: .whitespacesAndNewlines)
            var errors: [String: String] = [:]
            let oneIsEnough = !behaviour.requiresBothContacts && !(phone.isEmpty && email.isEmpty)
            if phone.isEmpty ? !oneIsEnough : !isPhone(phone) { errors["phone"] = Self.phoneMessage }
            if email.isEmpty ? !oneIsEnough : !isEmail(email) { errors["email"] = Self.emailMessage }
            let caregiver = caregiverPhone.trimmingCharacters(in: .whitespacesAndNewlines)
            if !caregiver.isEmpty, !isPhone(caregiver) { errors["caregiverPhone"] = Self.phoneMessage }
            return errors
        }

        /// 7 to 11 digits, a leading `+`, spaces, dashes and parentheses between them.
        func isPhone(_ text: String) -> Bool {
            var rest = Substring(text)
            if rest.first == "+" { rest = rest.dropFirst() }
            guard rest.allSatisfy({ $0.isASCII && ($0.isNumber || " -()".contains($0)) }) else { return false }
            let digits = rest.filter(\.isNumber).count
            return (behaviour.minimumPhoneDigits...11).contains(digits)
        }

        /// local@domain.tld, no spaces, at most 254 characters.
        func isEmail(_ text: String) -> Bool {
            text.count <= 254 && text.range(of: #"^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$"#, options: .regularExpression) != nil
        }

        /// The create with the found flow's state, then the photo upload as the created id.
        func send() async -> ClientObservation {
            alert = nil
            cause = nil
            let f = report.fields
            func nonBlank(_ name: String) -> String? {
                let text = report.text(name).trimmingCharacters(in: .whitespacesAndNewlines)
                return text.isEmpty ? nil : text
            }
            func contact(_ text: String) -> String? {
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                return trimmed.isEmpty ? nil : trimmed
            }
            guard let photo = report.photo, let day = f["lastSeenDate"]?.stringValue,
                  let latitude = f["locationLatitude"]?.numberValue, let longitude = f["locationLongitude"]?.numberValue else {
                return observe(.invalid)
            }
            let body = NewAnnouncement(
                species: nonBlank("species") ?? "", breed: nonBlank("breed"), sex: nonBlank("sex") ?? "",
                description: nonBlank("description"), microchipNumber: nonBlank("microchipNumber"),
                locationLatitude: latitude, locationLongitude: longitude, email: contact(email), phone: contact(phone),
                lastSeenDate: day, status: behaviour.status)
            do {
                let created = try await api.createAnnouncement(body)
                try await api.uploadPhoto(PhotoAttachment(data: photo.bytes, mimeType: photo.mimeType),
                                          announcementID: created.id, managementPassword: created.managementPassword)
                screen = behaviour.endsOnSummary ? "summary" : "closed"
                var o = observe(.success)
                if behaviour.endsOnSummary { o.managementPassword = created.managementPassword }
                return o
            } catch {
                let kind = ErrorMapping.alert(for: error)
                let text = kind == .generic ? behaviour.genericText ?? kind.message : kind.message
                alert = ObservedAlert(kind: kind.rawValue, message: text, buttons: AlertKind.buttonTitles)
                cause = PetSpotClientSession.observed(ErrorMapping.cause(for: error))
                return observe(.failure)
            }
        }

        func observe(_ outcome: ClientOutcome, fieldErrors: [String: String] = [:]) -> ClientObservation {
            ClientObservation(outcome: outcome, alert: alert, fieldErrors: fieldErrors, inputs: ["phone": phone, "email": email, "caregiverPhone": caregiverPhone],
                              screen: screen, cause: cause, analytics: [])
        }
    }
}
#endif
