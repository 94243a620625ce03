import ContractKit
import Foundation

/// The PetSpot model's own answer to requests whose answer needs no stored state (a create body's validation, the
/// list's parameters), held against the server's: a 400 to a request the model accepts, a success for one it refuses,
/// or another code, field or message are the server's differences.
///
/// A schema says only which requests are allowed; the model says which answer each one gets. Without this, a server
/// that tightened a rule (a blank email next to a valid phone answered 400) passes, because a documented 400 is an
/// allowed answer (issue 24). The model is the contracts' compiled request rules, the mock's own, so the proxy and the
/// mock can never disagree.
struct ModelAnswerCheck: Sendable {
    /// Each contract's compiled request rules; only contracts that state answers (`x-errors`) are compared.
    let rules: [String: RequestRules]
    /// The clock the model's "not in the future" rule reads.
    let now: @Sendable () -> Date
    /// The service's body parser, so a body reads here as the model reads it (lone surrogates included).
    let bodyParser: ServiceFile.BodyParser

    init(contracts: ContractSet, now: @escaping @Sendable () -> Date) {
        rules = contracts.requestRules
        self.now = now
        bodyParser = contracts.service.bodyParser
    }

    /// The model's refusal of `exchange`'s request (nil: it accepts), or `.notCompared` when the model cannot tell
    /// without state or the request was not captured whole.
    enum Verdict {
        case accepts
        /// The model refuses with this answer; `assumption` says what it assumed when the contract states no answer.
        case refuses(ModelError, assumption: String?)
        case notCompared
    }

    /// Where the server's answer differs from the model's; nothing when the schema checks already reported the status
    /// (an undocumented answer, or a success to a request the schema refuses): one finding per difference.
    func violations(_ exchange: Exchange, contract: Contract, status: Int, body: JSONValue?, statusAlreadyReported: Bool) -> [ExchangeViolation] {
        // Only these answers are the model's to decide: a 409, 413, 401/403/404 or 5xx depends on state, size or faults.
        guard !statusAlreadyReported, (200..<300).contains(status) || status == 400 else { return [] }
        let expected: ModelError?
        var assumptions: [String]?
        switch verdict(exchange, contractID: contract.id) {
        case .notCompared: return []
        case .accepts: expected = nil
        case .refuses(let error, let assumption):
            expected = error
            assumptions = assumption.map { [$0] }
        }
        // A difference from an answer the model assumed is a note, not a violation (design.md, "Verdicts").
        func violation(_ pointer: String, _ wanted: String, _ got: String) -> ExchangeViolation {
            ExchangeViolation(contract: contract.id, pointer: pointer, expected: wanted, got: got, side: .server, assumptions: assumptions)
        }
        let error = body?["error"]
        let answer = Self.describe(status: status, code: error?["code"]?.stringValue, field: error?["field"]?.stringValue,
                                   message: error?["message"]?.stringValue)
        guard let expected else {
            guard status == 400 else { return [] }
            return [violation("status", "a success: the contract's model accepts this request", answer)]
        }
        let modelAnswer = Self.describe(status: Int(expected.status.code), code: expected.code, field: expected.field, message: expected.message)
        guard status == 400 else { return [violation("status", "\(modelAnswer): the contract's model refuses this request", answer)] }
        guard error?["code"]?.stringValue != expected.code || error?["field"]?.stringValue != expected.field
            || error?["message"]?.stringValue != expected.message
        else { return [] }
        return [violation("/error", "\(modelAnswer), the contract's model's answer", answer)]
    }

    /// What the model answers to the request of `exchange`, without touching any state.
    func verdict(_ exchange: Exchange, contractID: String) -> Verdict {
        guard let rules = rules[contractID], rules.isStated else { return .notCompared }
        let context = RuleContext(today: Timestamp.day(of: now()))
        if let query = rules.query {
            let sent = QueryRules.firstValues(in: exchange.query)
            if case .failure(let refusal) = query.evaluate({ sent[$0] }, context: context) { return .refuses(refusal.petSpotError, assumption: refusal.assumption) }
        }
        guard let bodyRules = rules.body else { return rules.query == nil ? .notCompared : .accepts }
        guard exchange.requestBodySize == exchange.requestBody.count else { return .notCompared }
        let headers = HeaderFields(exchange.requestHeaders.map { (name: $0.name, value: $0.value) })
        let request = ModelRequest(method: "POST", uri: exchange.path, headers: headers, body: exchange.requestBody)
        let body: JSONValue?
        switch JSONBodyParser.parse(request, parser: bodyParser) {
        case .undefined: body = nil
        case .value(let value): body = value
        // The body parser's own failures are documented answers with known defects of their own; the schema check has them.
        case .failure: return .notCompared
        }
        return bodyRules.firstRefusal(in: body, context: context).map { .refuses($0.petSpotError, assumption: $0.assumption) } ?? .accepts
    }

    /// The status, then the error code, field and message in quotes.
    static func describe(status: Int, code: String?, field: String?, message: String?) -> String {
        var text = "\(status)"
        if let code { text += " \(code)" }
        if let field { text += " \(field)" }
        if let message { text += " \"\(ViolationText.cut(message))\"" }
        return text
    }
}
