import ContractKit

/// What the contracts declare for one endpoint: its `x-state` and its auth checks, looked up once per request.
struct DeclaredEndpoint: Sendable {
    /// The contract's id.
    let contractID: String
    /// Its `x-state`, if any.
    let state: StateDeclaration?
    /// Its auth checks with their answers, if any.
    let auth: AuthDeclaration?
    /// The layout of the collection it works on, if any.
    var layout: RecordLayout?

    /// The path parameters of a route whose one parameter is the record's key, named as the declaration names it.
    func parameters(key value: String) -> [String: String] {
        guard let key = state?.key else { return [:] }
        return [key: value]
    }

    /// The declared state, or the error that makes the answer a 500: the executor cannot guess an endpoint's state.
    func requireState() throws -> StateDeclaration {
        guard let state else { throw UndeclaredState(contractID: contractID, what: "x-state") }
        return state
    }

    /// The collection's layout, or the error that makes the answer a 500.
    func requireLayout() throws -> RecordLayout {
        guard let layout else { throw UndeclaredState(contractID: contractID, what: "x-state/collection") }
        return layout
    }

    /// The declared auth checks, or the error that makes the answer a 500.
    func requireAuth() throws -> AuthDeclaration {
        guard let auth else { throw UndeclaredState(contractID: contractID, what: "request.auth.x-errors") }
        return auth
    }
}

/// A stateful endpoint whose contract lacks a declaration the executor needs; answered like any uncaught failure.
struct UndeclaredState: Error, CustomStringConvertible {
    let contractID: String
    let what: String
    var description: String { "the contract \(contractID) declares no \(what)" }
}

extension ModelExecutor {
    /// The declarations of the contract with this id (nothing declared for an unknown id).
    func declared(_ contractID: String?) -> DeclaredEndpoint {
        let id = contractID ?? ""
        let state = configuration.contracts.state
        return DeclaredEndpoint(contractID: id, state: state.declarations[id], auth: state.auth[id])
    }

    /// The declarations of `endpoint`'s contract, with its collection's layout.
    func declared(_ endpoint: ModelEndpoint) -> DeclaredEndpoint {
        endpoint.declared
    }
}

extension ModelError {
    /// The error a declared answer describes, its placeholders filled from `parameters` (the path parameters).
    init(_ answer: DeclaredAnswer, parameters: [String: String] = [:]) {
        self.init(HTTPStatus(statusCode: answer.status), answer.code, answer.message(with: parameters),
                  field: answer.field(with: parameters))
    }
}
