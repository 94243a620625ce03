import ContractKit
import ContractModel
import Foundation

/// One request of a provider verification, with the documented answer it must produce.
public struct VerificationCheck: Sendable {
    /// The contract the request exercises, e.g. `uploadPhoto`.
    public let contractID: String
    /// The contract file, relative to the contracts folder, for reports.
    public let file: String
    /// The named example the check comes from.
    public let exampleName: String
    /// The documented answer: status, error code, body schema and headers.
    public let response: ResponseSpec
    /// The error `field` the example documents, if any.
    public let expectedField: String?
    /// How to build the request from the state earlier checks captured.
    public let recipe: RequestRecipe
    /// Why the check cannot be sent (e.g. a 500 no request can trigger); such checks are reported as skipped.
    public let skipReason: String?
    /// Whether the contracts state `response.code`: an OpenAPI error answer without one gets `HTTP_<status>` from the
    /// translation, which the plan must not name as if the document said it.
    public var codeStated = true

    /// `201`, or `400 INVALID_FIELD` when the code is stated: how the plan names the documented answer.
    public var expectedLabel: String { codeStated ? response.label : String(response.status) }

    /// The error `message` the example pins, if any (compared unless `verify --ignore-messages`).
    public var expectedMessage: String? {
        response.examples.first { $0.name == exampleName }?.body?["error"]?["message"]?.stringValue
    }

    /// Whether the documented answer is an error envelope from an example (so an absent `field` is pinned too).
    var expectsError: Bool {
        response.code != nil && response.examples.first { $0.name == exampleName }?.body?["error"] != nil
    }

    /// The same check with `setUp` sent before its request.
    func sentAfter(_ setUp: RequestRecipe) -> VerificationCheck {
        var recipe = recipe
        recipe.before.append(setUp)
        var check = VerificationCheck(contractID: contractID, file: file, exampleName: exampleName, response: response,
                                      expectedField: expectedField, recipe: recipe, skipReason: skipReason)
        check.codeStated = codeStated
        return check
    }

    /// `contractID › exampleName`: how reports name the check.
    public var name: String { "\(contractID) › \(exampleName)" }
}
