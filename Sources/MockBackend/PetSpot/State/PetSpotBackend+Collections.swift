import ContractKit
import Foundation
import NIOCore
import NIOHTTP1

extension PetSpotBackend {
    /// Answers an endpoint whose `x-state` works on a small record collection (not the announcements): `create` and
    /// `authenticate`, everything from the declaration: key and its transform, unique fields, generated fields, the
    /// stored secret against the sent one, and the answer's fields.
    ///
    /// `sent` is what the JSON body parser left; the contract's compiled body rules (`x-errors`) check it first.
    func answerCollection(_ endpoint: DeclaredEndpoint, parameters: [String: String], body sent: JSONValue?) throws -> MockResponse {
        let state = try endpoint.requireState()
        guard let contract = configuration.contracts.contract(id: endpoint.contractID) else {
            throw UndeclaredState(contractID: endpoint.contractID, what: "contract")
        }
        let body = try checkedBody(sent, contract: contract)
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

    /// The body as an object once the contract's compiled body rules pass; else their first refusal.
    private func checkedBody(_ value: JSONValue?, contract: Contract) throws -> JSONObject {
        if let rules = configuration.contracts.requestRules[contract.id]?.body,
            let refusal = rules.firstRefusal(in: value, context: RuleContext(today: Timestamp.day(of: configuration.now())))
        {
            throw refusal.thrown
        }
        // Rules without a body schema (or none at all) leave anything through; a record is made of an object only.
        guard let object = value?.objectValue else { throw UndeclaredState(contractID: contract.id, what: "request body rules that refuse a non-object") }
        return object
    }
}
