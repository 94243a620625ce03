import ContractKit
import Foundation

/// The one validator of live traffic: matches an exchange to its contract and checks both sides against it, plus the
/// cross-request invariants the contracts state. The proxy, `serve`'s self-check and verification all call it.
public final class ExchangeValidator: Sendable {
    /// The contracts exchanges are checked against.
    public let contracts: ContractSet
    let knownDefects: any KnownDefectMatching
    let invariants: ExchangeInvariants
    let model: ModelAnswerCheck

    /// A validator for `contracts`; `knownDefects` labels listed server defects (none by default); `now` is the clock
    /// of the model's "not in the future" rule.
    public init(contracts: ContractSet, knownDefects: any KnownDefectMatching = NoKnownDefects(),
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.contracts = contracts
        self.knownDefects = knownDefects
        self.invariants = ExchangeInvariants(contracts: contracts)
        self.model = ModelAnswerCheck(contracts: contracts, now: now)
    }

    /// Every way `exchange` leaves its contract, request side first; `answerIsGenuine` false (a fault shaped the answer)
    /// checks the request only. Updates the invariants' memory of created records.
    public func validate(_ exchange: Exchange, answerIsGenuine: Bool = true) -> [ExchangeViolation] {
        guard let match = contracts.match(method: exchange.method, path: exchange.path, routed: exchange.routedContractID) else {
            return label([undocumented(exchange)], exchange)
        }
        let contract = match.contract
        // Compiled when the contracts loaded; a contract from elsewhere (never in `serve`) is compiled here.
        let check = contracts.requestChecks[contract.id] ?? CompiledRequestCheck(contract, validator: contracts.validator)
        var found = RequestValidation(check: check, contractID: contract.id, spec: contract.request, exchange: exchange, parameters: match.parameters).violations()
        guard answerIsGenuine, let status = exchange.status, !isProxyFailure(exchange) else { return label(found, exchange) }
        let responseCheck = ResponseValidation(contracts: contracts, contract: contract, exchange: exchange)
        found += responseCheck.violations()
        if (200..<300).contains(status) || status >= 500,
           found.contains(where: { $0.side == .client && ($0.pointer.hasPrefix("/") || $0.pointer.hasPrefix("header:") || $0.pointer.hasPrefix("part:")) }) {
            found.append(ExchangeViolation(contract: contract.id, pointer: "status", expected: "a documented 4xx answer refusing the invalid request",
                                           got: "\(status)", side: .server))
        }
        // A documented 400 is an allowed answer, but not the model's answer to a request the model accepts (issue 24).
        found += model.violations(exchange, contract: contract, status: status, body: responseCheck.parsedBody,
                                  statusAlreadyReported: found.contains { $0.pointer == "status" })
        // An invariant broken at a body member replaces the schema's report of that member: one finding, the more telling one.
        let stateful = invariants.check(exchange, match: match, status: status, body: responseCheck.parsedBody)
        let replaced = Set(stateful.map(\.pointer).filter { $0.hasPrefix("/") })
        found.removeAll { $0.side == .server && replaced.contains($0.pointer) }
        found += stateful
        return label(found, exchange)
    }

    /// The answer-side checks only, with no memory: what the mock's self-check asks of each of its own answers.
    public func validateResponse(_ exchange: Exchange, contractID: String?) -> [ExchangeViolation] {
        guard exchange.status != nil else { return [] }
        guard let contractID, let contract = contracts.contract(id: contractID) else {
            return label(ResponseValidation.outsideContracts(contracts: contracts, exchange: exchange), exchange)
        }
        return label(ResponseValidation(contracts: contracts, contract: contract, exchange: exchange).violations(), exchange)
    }

    /// The documented headers of `spec` and the ones service.json states, its body schema against `body` and the values the
    /// server made up (generated members), for callers that know which answer they expect (provider verification); no
    /// memory is touched.
    public func violations(of exchange: Exchange, against spec: ResponseSpec, contract: Contract, body: JSONValue?) -> [ExchangeViolation] {
        let check = ResponseValidation(contracts: contracts, contract: contract, exchange: exchange)
        var found = check.headerViolations(spec) + check.serviceHeaderViolations()
        if let body, let schema = spec.body { found += check.schemaViolations(body, schema) }
        if let body, let status = exchange.status, status == spec.status { found += check.generatedViolations(body, status: status, besides: found) }
        return found
    }

    /// Forgets these created records (deleted or replaced behind the traffic's back), or every one when nil (a reset).
    public func forget(ids: [String]?) {
        invariants.forget(ids)
    }

    /// Traffic to an endpoint no contract documents: the contracts do not know it, so neither side is blamed.
    private func undocumented(_ exchange: Exchange) -> ExchangeViolation {
        let others = contracts.contracts(matchingPath: exchange.path)
        if others.isEmpty {
            return ExchangeViolation(contract: nil, pointer: "request", expected: "a documented endpoint",
                                     got: "undocumented: \(exchange.method) \(exchange.path)", side: .contracts)
        }
        let methods = others.map(\.method).joined(separator: ", ")
        return ExchangeViolation(contract: others.first?.id, pointer: "request", expected: "one of the documented methods \(methods)",
                                 got: "undocumented: \(exchange.method) \(exchange.path)", side: .contracts)
    }

    /// The proxy's own 502/504 when the target failed is about reachability, and its 400 for a URL it cannot forward is
    /// about the request line, not about the contract: the target never saw either.
    private func isProxyFailure(_ exchange: Exchange) -> Bool {
        guard let status = exchange.status, [400, 502, 504].contains(status), exchange.responseBody.first == UInt8(ascii: "{") else { return false }
        return (try? JSONValue(parsing: exchange.responseBody))?["error"]?["code"]?.stringValue == "PROXY_ERROR"
    }

    private func label(_ violations: [ExchangeViolation], _ exchange: Exchange) -> [ExchangeViolation] {
        violations.map { violation in
            var labelled = violation
            labelled.knownDefect = knownDefects.knownDefect(for: violation, in: exchange)
            return labelled
        }
    }
}

extension ExchangeViolation {
    /// Whether this is a real violation (neither a listed known defect nor a note where the model assumed).
    public var isViolation: Bool { knownDefect == nil && assumptions == nil }

    /// Whether this differs only from an answer the model assumed (and no listed known defect explains it).
    public var isNote: Bool { knownDefect == nil && assumptions != nil }

    /// Whether this reports traffic no contract documents.
    public var isUndocumented: Bool { got.hasPrefix("undocumented: ") }

    /// One line for people: `[server] <contract id> /id: expected a UUID, got "x"`.
    public var line: String {
        let what = knownDefect.map { "known defect \($0)" } ?? (isNote ? "note" : "violation")
        let text = "\(what) [\(side.rawValue)] \(contract ?? "(no contract)") \(pointer.isEmpty ? "/" : pointer): expected \(expected), got \(got)"
        guard isNote, let assumptions else { return text }
        return text + "; the model assumed: " + assumptions.joined(separator: "; ")
    }
}
