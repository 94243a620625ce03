import ContractKit
import Foundation
import NIOCore
import NIOHTTP1

extension PetSpotBackend {
    /// The record-collection endpoint (an `x-state` with `create` or `authenticate`) a request is for, with its path
    /// parameters and its contract's body limit; nil for any other request.
    func collectionEndpoint(for request: MockRequest) -> (endpoint: DeclaredEndpoint, parameters: [String: String], maxBodyBytes: Int?)? {
        let contracts = configuration.contracts
        guard let match = contracts.match(method: request.method.rawValue, path: request.path),
            let state = contracts.state.declarations[match.contract.id], state.action == .create || state.action == .authenticate
        else { return nil }
        return (declared(match.contract.id), match.parameters, match.contract.request.maxBodyBytes)
    }

    /// Answers an endpoint whose `x-state` works on a small record collection (not the announcements): `create` and
    /// `authenticate`, everything from the declaration: key and its transform, unique fields, generated fields, the
    /// stored secret against the sent one, and the answer's fields.
    func answerCollection(_ endpoint: DeclaredEndpoint, parameters: [String: String], request: MockRequest) throws -> MockResponse {
        let state = try endpoint.requireState()
        guard let contract = configuration.contracts.contract(id: endpoint.contractID) else {
            throw UndeclaredState(contractID: endpoint.contractID, what: "contract")
        }
        let body: JSONObject
        switch JSONBodyParser.parse(request) {
        case .failure(let trigger, let error): throw reproducing(trigger) ?? error
        case .undefined: body = try checkedBody(nil, contract: contract)
        case .value(let value): body = try checkedBody(value, contract: contract)
        }
        let keyValue = state.key.flatMap { body[$0]?.stringValue } ?? ""
        let storedKey = state.storedKey(keyValue)
        var record: JSONObject
        switch state.action {
        case .create:
            record = body
            for (field, generator) in state.generate where generator != .jwtHS256 { record[field] = generated(generator) }
            let new = record
            // Only non-empty strings take part in uniqueness; the first unique field (in declared order) that clashes answers.
            let clash: DeclaredAnswer? = store.collections.withLock { collections in
                var collection = collections[state.collection] ?? RecordCollection()
                for (field, answer) in state.unique {
                    guard let value = body[field]?.stringValue, !value.isEmpty else { continue }
                    if collection.isTaken(field: field, value: value, keyField: state.key, storedKey: storedKey) { return answer }
                }
                collection.insert(new, key: storedKey, unique: state.unique.map(\.field))
                collections[state.collection] = collection
                return nil
            }
            if let clash { throw PetSpotError(clash, parameters: parameters) }
        case .authenticate:
            guard let found = store.collections.withLock({ $0[state.collection]?.record(key: storedKey) }) else {
                guard let notFound = state.notFound else { throw UndeclaredState(contractID: endpoint.contractID, what: "notFound") }
                throw PetSpotError(notFound, parameters: parameters)
            }
            guard let credentials = state.credentials else { throw UndeclaredState(contractID: endpoint.contractID, what: "credentials") }
            let sent: String? = if case .body(let name) = credentials.sent { body[name]?.stringValue } else { nil }
            guard let expected = found[credentials.stored]?.stringValue, let sent, BasicCredentials.constantTimeEquals(expected, sent) else {
                throw PetSpotError(credentials.mismatch, parameters: parameters)
            }
            record = found
            for (field, generator) in state.generate where generator != .jwtHS256 { record[field] = generated(generator) }
        default:
            throw UndeclaredState(contractID: endpoint.contractID, what: "an action a record collection can serve (create, authenticate)")
        }
        // Tokens come last: their claims are other fields of the record, generated ones included.
        for (field, generator) in state.generate where generator == .jwtHS256 {
            guard let token = state.token else { throw UndeclaredState(contractID: endpoint.contractID, what: "x-state/token") }
            let claims = token.claims.map { ($0, record[$0] ?? .null) }
            record[field] = .string(JSONWebToken.hs256(claims: claims, now: configuration.now(), token: token))
        }
        let fields = state.answer ?? record.keys.filter { !state.secret.contains($0) }
        let answer = JSONObject(fields.map { ($0, record[$0] ?? .null) })
        let status = contract.successResponse?.status ?? 200
        return Self.json(HTTPResponseStatus(statusCode: status), .object(answer))
    }

    /// The body as an object once the contract's compiled request check passes; else the contract's first documented 400.
    ///
    /// A stand-in until the body rules (`x-errors` in the request schema) are compiled (the rules helper's work): the
    /// message and field are those of that answer's first example.
    private func checkedBody(_ value: JSONValue?, contract: Contract) throws -> JSONObject {
        let check = configuration.contracts.requestChecks[contract.id]?.body
        if let value, let object = value.objectValue, check?.isValid(value) ?? true { return object }
        guard let documented = contract.responses.first(where: { $0.status == 400 }), let code = documented.code else {
            throw UndeclaredState(contractID: contract.id, what: "a 400 answer for an invalid body")
        }
        let example = documented.examples.first?.body?["error"]
        throw PetSpotError(.badRequest, code, example?["message"]?.stringValue ?? documented.when, field: example?["field"]?.stringValue)
    }
}
