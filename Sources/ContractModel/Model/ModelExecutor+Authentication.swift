import ContractKit
import Foundation

extension ModelExecutor {
    /// `authenticate`: the contract's body rules, then the record named by the sent key (through its transform), the
    /// stored credential against the sent one, and the declared `answer` fields with fresh generated ones (tokens).
    ///
    /// `sent` is what the JSON body parser left; the contract's compiled body rules (`x-errors`) check it first.
    func authenticate(_ model: ModelEndpoint, _ endpoint: DeclaredEndpoint, parameters: [String: String], body sent: JSONValue?) throws -> ModelAnswer {
        let state = try endpoint.requireState()
        let layout = try endpoint.requireLayout()
        if let rules = model.bodyRules, let refusal = rules.firstRefusal(in: sent, context: RuleContext(today: Timestamp.day(of: configuration.now()))) {
            throw refusal.thrown
        }
        guard let body = sent?.objectValue else { throw UndeclaredState(contractID: endpoint.contractID, what: "request body rules that refuse a non-object") }
        let storedKey = state.storedKey(state.key.flatMap { body[$0]?.stringValue } ?? "")
        guard let found = store.record(in: layout.index, id: storedKey),
            let object = (try? JSONValue(parsing: Array(found.json)))?.objectValue
        else {
            guard let notFound = state.notFound else { throw UndeclaredState(contractID: endpoint.contractID, what: "notFound") }
            throw ModelError(notFound, parameters: parameters)
        }
        guard let credentials = state.credentials else { throw UndeclaredState(contractID: endpoint.contractID, what: "credentials") }
        let given: String? = if case .body(let name) = credentials.sent { body[name]?.stringValue } else { nil }
        // The stored credential is the record's secret when the collection keeps it apart, else one of its fields.
        let expected = credentials.stored == layout.secretField ? found.secret : object[credentials.stored]?.stringValue
        guard let expected, let given, BasicCredentials.constantTimeEquals(expected, given) else {
            throw ModelError(credentials.mismatch, parameters: parameters)
        }
        var record = object
        for (field, generator) in state.generate where generator != .jwtHS256 { record[field] = generated(generator) }
        let fields = state.answer ?? record.keys
        return try answer(fields, record: record, state: state, contractID: endpoint.contractID,
                          status: HTTPStatus(statusCode: model.successStatus))
    }
}
