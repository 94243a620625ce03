import ContractKit
import Foundation
import NIOHTTP1

/// The request rules the PetSpot model answers with, taken from the contracts' compiled `RequestRules`: the create
/// body's and the list query's. Nothing the model refuses or stores is written here; it is all contract data.
public struct ModelRules: Sendable {
    /// The create body's rules.
    let create: BodyRules
    /// The list's query rules; nil when the list documents no parameters.
    let list: QueryRules?

    /// The contracts lack rules the model needs: the create contract has no JSON object body schema.
    public struct Missing: Error, Sendable, CustomStringConvertible {
        /// What is missing, for a person.
        public var description: String {
            "the contracts have no create endpoint (x-state action create) with a JSON object request body, whose rules the model answers with"
        }
    }

    /// The rules of the contracts' create and list endpoints.
    init(contracts: ContractSet) throws(Missing) {
        func rules(_ action: EndpointAction) -> RequestRules? {
            contracts.contracts.lazy.filter { EndpointAction.of($0) == action }.compactMap { contracts.requestRules[$0.id] }.first
        }
        guard let create = rules(.create)?.body else { throw Missing() }
        self.create = create
        list = rules(.list)?.query
    }

    /// Applies a named transformation the contracts ask for on stored text (`x-sanitize`, `x-stored-key`).
    static func transform(_ transform: NamedTransform, _ text: String) -> String {
        switch transform {
        case .xss: return HTMLSanitizer.strip(text, trim: false)
        case .lowercase: return text.lowercased()
        }
    }
}

/// A rule's answer given on an assumption: the error to send and what the model assumed, for `MockResponse.assumptions`.
struct AssumedAnswer: Error, Sendable {
    let error: PetSpotError
    let assumptions: [String]
}

extension RuleRefusal {
    /// The answer as the backend sends it.
    var petSpotError: PetSpotError {
        PetSpotError(HTTPResponseStatus(statusCode: status), code, message, field: field)
    }

    /// What to throw: the answer, carrying the assumption when the contract did not state it.
    var thrown: any Error {
        guard let assumption else { return petSpotError }
        return AssumedAnswer(error: petSpotError, assumptions: [assumption])
    }
}
