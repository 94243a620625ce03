// Test doubles shared by test targets; @testable needs a debug build, so release builds compile this module empty.
#if DEBUG
import Foundation
import PetSpotClient

@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// Clients that break a seed rule on the flow which only the checks of issue 35 see, or only on report data a user can
/// type: each behaves as the reference client everywhere else.
enum FlowRuleClients {
    /// Validates while the user types: an edit that leaves a field invalid shows its inline message at once (seed 001
    /// Clarifications and 003 Notes: only on Continue).
    struct ValidatesWhileTyping: ClientDriver {
        var description: String { "broken: validates phone and email on every keystroke" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            Rewriting(inner: try await PetSpotClientDriver().open(context)) { action, observation in
                guard case .editField(let field, let value) = action else { return observation }
                var o = observation
                if field == "phone", SeedInputRules.phone(value).isInvalid { o.fieldErrors["phone"] = SeedInputRules.phoneMessage }
                if field == "email", SeedInputRules.email(value).isInvalid { o.fieldErrors["email"] = SeedInputRules.emailMessage }
                return o
            }
        }
    }

    /// Emits the completion event only for a submission that succeeds at the first tap, not through Try Again.
    struct NoAnalyticsAfterTryAgain: ClientDriver {
        var description: String { "broken: no analytics after a success through Try Again" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            Rewriting(inner: try await PetSpotClientDriver().open(context)) { action, observation in
                guard action == .retry, observation.outcome == .success else { return observation }
                var o = observation
                o.analytics = []
                return o
            }
        }
    }

    /// Strips accents and other combining marks from the report's free text before sending it ("Café" goes out as
    /// "Cafe"). Normalizing to NFC alone is not such a bug: NFC and NFD are the same text, and the judge compares
    /// canonically, as Swift strings do.
    static let stripsDiacritics = SpecBreakingClients.tampering { body, _ in
        func strip(_ text: String?) -> String? { text?.folding(options: .diacriticInsensitive, locale: nil) }
        body.petName = strip(body.petName)
        body.breed = strip(body.breed)
        body.description = strip(body.description)
    }

    /// Cuts the description at 255 characters, as a VARCHAR(255) in a client-side store would.
    static let cutsDescriptionAt255 = SpecBreakingClients.tampering { body, _ in
        body.description = body.description.map { String($0.prefix(255)) }
    }
}
#endif
