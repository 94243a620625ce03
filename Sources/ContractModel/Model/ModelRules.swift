import ContractKit
import Foundation

/// What the model needs of the contracts' rules: every create of a collection states its JSON body as an object
/// schema (the rules that refuse a body, and what is stored from it), and the named transformations they ask for.
public enum ModelRules {
    /// The contracts lack rules the model needs: a create contract has no JSON object body schema.
    public struct Missing: Error, Sendable, CustomStringConvertible {
        /// The create contract without one.
        public let contractID: String

        /// What is missing, for a person.
        public var description: String {
            "the create contract \(contractID) (x-state action create) has no JSON object request body, whose rules the model answers with"
        }
    }

    /// Throws for the first create endpoint of `endpoints` that reads a JSON body without compiled object rules.
    static func check(_ endpoints: [ModelEndpoint]) throws(Missing) {
        for endpoint in endpoints where endpoint.action == .create && endpoint.bodyRules == nil {
            throw Missing(contractID: endpoint.contractID)
        }
    }

    /// Applies a named transformation the contracts ask for on stored text (`x-sanitize`, `x-stored-key`).
    static func transform(_ transform: NamedTransform, _ text: String) -> String {
        switch transform {
        case .xss: return HTMLSanitizer.strip(text, trim: false)
        case .lowercase: return text.lowercased()
        }
    }
}

/// A rule's answer given on an assumption: the error to send and what the model assumed, for `ModelAnswer.assumptions`.
struct AssumedAnswer: Error, Sendable {
    let error: ModelError
    let assumptions: [String]
}

extension RuleRefusal {
    /// The answer as the backend sends it.
    var petSpotError: ModelError {
        ModelError(HTTPStatus(statusCode: status), code, message, field: field)
    }

    /// What to throw: the answer, carrying the assumption when the contract did not state it.
    var thrown: any Error {
        guard let assumption else { return petSpotError }
        return AssumedAnswer(error: petSpotError, assumptions: [assumption])
    }
}
