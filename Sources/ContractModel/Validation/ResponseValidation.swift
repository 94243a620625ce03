import ContractKit
import Foundation

/// The server's side of an exchange against its contract: a status (and error code) documented for this request, the
/// documented headers, the body's content type and schema, and the error envelope. Every finding is the server's fault.
struct ResponseValidation {
    let contracts: ContractSet
    let contract: Contract
    let exchange: Exchange
    /// The answer's body as JSON, when it was JSON and short enough to read whole.
    let parsedBody: JSONValue?

    init(contracts: ContractSet, contract: Contract, exchange: Exchange) {
        self.contracts = contracts
        self.contract = contract
        self.exchange = exchange
        let type = exchange.responseHeader("content-type")
        let readable = !exchange.responseBody.isEmpty && exchange.responseBodySize <= Exchange.jsonValidationLimit
            && (type == nil || Exchange.isJSON(type))
        parsedBody = readable ? try? JSONValue(parsing: exchange.responseBody) : nil
    }

    func violations() -> [ExchangeViolation] {
        guard let status = exchange.status else { return [] }
        let code = parsedBody?["error"]?["code"]?.stringValue
        let spec = code.flatMap { contract.response(status: status, code: $0) } ?? contract.response(status: status)
        guard let spec else {
            let documented = contract.responses.map(\.label).joined(separator: ", ")
            return [violation("status", "one of the documented answers \(documented)",
                              "\(status)" + (code.map { " \($0)" } ?? "") + " (not documented)")]
        }
        var found = headerViolations(spec) + serviceHeaderViolations()
        found += bodyViolations(spec, code: code)
        if let parsedBody { found += generatedViolations(parsedBody, status: status, besides: found) }
        return found
    }

    /// Each header value `service.json` states for every answer (CORS, helmet's) that this answer sends changed.
    func serviceHeaderViolations() -> [ExchangeViolation] {
        Self.serviceHeaderViolations(contracts: contracts, exchange: exchange, contract: contract.id)
    }

    static func serviceHeaderViolations(contracts: ContractSet, exchange: Exchange, contract: String?) -> [ExchangeViolation] {
        let stated = StatedHeaders(contracts.service)
        let sent = exchange.responseHeaders.map { (name: $0.name, value: $0.value) }
        return stated.differences(in: sent, preflight: stated.isPreflight(method: exchange.method)).map {
            ExchangeViolation(contract: contract, pointer: "header:\($0.name)", expected: "\"\($0.expected)\" (service.json states it on every answer)",
                              got: "\"\(ViolationText.cut($0.got))\"", side: .server)
        }
    }

    /// Each value the server made with a named generator (`x-state.generate`, `x-generate`) that breaks what the generator
    /// states; a member the schema already reported (`besides`) is left to that report.
    func generatedViolations(_ body: JSONValue, status: Int, besides reported: [ExchangeViolation] = []) -> [ExchangeViolation] {
        // The server's clock is its Date header; without one, the time the answer was seen; without that, no clock check.
        let serverTime = exchange.responseHeader("date").flatMap(HTTPDate.parse) ?? exchange.answeredAt
        var context = GeneratedValueContext(serverTime: serverTime ?? Date())
        if serverTime == nil { context.tolerance = .greatestFiniteMagnitude }
        return GeneratedMembers.problems(in: body, contract: contract, contracts: contracts, status: status, context: context)
            .filter { found in !reported.contains { $0.pointer == found.pointer } }
            .map { violation($0.pointer, $0.problem.expected, $0.problem.got) }
    }

    /// Where `body` breaks `schema`, one violation per schema finding.
    func schemaViolations(_ body: JSONValue, _ schema: JSONValue) -> [ExchangeViolation] {
        contracts.validate(body, against: schema).map {
            violation($0.pointer.isEmpty ? "/" : $0.pointer, $0.message, ViolationText.describe(JSONPointer.resolve($0.pointer, in: body)))
        }
    }

    /// For an answer outside every contract: an error status must still carry the error envelope.
    static func envelopeOnly(contracts: ContractSet, exchange: Exchange) -> [ExchangeViolation] {
        guard let status = exchange.status, status >= 400, let envelope = contracts.schema(named: "ErrorEnvelope") else { return [] }
        guard let body = try? JSONValue(parsing: exchange.responseBody) else {
            return [ExchangeViolation(contract: nil, pointer: "/", expected: "the JSON error envelope",
                                      got: ViolationText.excerpt(exchange.responseBody), side: .server)]
        }
        return contracts.validate(body, against: envelope).map {
            ExchangeViolation(contract: nil, pointer: $0.pointer.isEmpty ? "/" : $0.pointer, expected: $0.message,
                              got: ViolationText.describe(JSONPointer.resolve($0.pointer, in: body)), side: .server)
        } + requestIDMismatch(body, exchange, contract: nil)
    }

    /// For an answer outside every contract: the error envelope of an error status, and the headers service.json states.
    static func outsideContracts(contracts: ContractSet, exchange: Exchange) -> [ExchangeViolation] {
        envelopeOnly(contracts: contracts, exchange: exchange) + serviceHeaderViolations(contracts: contracts, exchange: exchange, contract: nil)
    }

    /// An error envelope's requestId must echo the request-id header.
    static func requestIDMismatch(_ body: JSONValue, _ exchange: Exchange, contract: String?) -> [ExchangeViolation] {
        guard let id = body["error"]?["requestId"]?.stringValue, let header = exchange.responseHeader("request-id"), header != id else { return [] }
        return [ExchangeViolation(contract: contract, pointer: "/error/requestId", expected: "the request-id header \"\(header)\"",
                                  got: "\"\(id)\"", side: .server)]
    }

    private func violation(_ pointer: String, _ expected: String, _ got: String) -> ExchangeViolation {
        ExchangeViolation(contract: contract.id, pointer: pointer, expected: expected, got: got, side: .server)
    }

    func headerViolations(_ spec: ResponseSpec) -> [ExchangeViolation] {
        var found: [ExchangeViolation] = []
        for header in spec.headers {
            guard let value = exchange.responseHeader(header.name) else {
                if header.required { found.append(violation("header:\(header.name)", "present (required on every answer)", "missing")) }
                continue
            }
            for v in contracts.validate(.string(value), against: header.schema) {
                found.append(violation("header:\(header.name)", v.message, "\"\(ViolationText.cut(value))\""))
            }
        }
        return found
    }

    private func bodyViolations(_ spec: ResponseSpec, code: String?) -> [ExchangeViolation] {
        let sentType = exchange.responseHeader("content-type")
        guard let schema = spec.body else {
            if let documented = spec.contentType {
                guard let sentType, ResponseContractCheck.mediaType(sentType, matches: documented) else {
                    return [violation("header:Content-Type", documented, sentType.map { "\"\($0)\"" } ?? "missing")]
                }
            } else if exchange.responseBodySize > 0 {
                return [violation("/", "no body (\(spec.label))", "\(exchange.responseBodySize) bytes")]
            }
            return []
        }
        if exchange.responseBodySize > Exchange.jsonValidationLimit { return [] }
        if let sentType, !Exchange.isJSON(sentType) {
            return [violation("header:Content-Type", spec.contentType ?? "application/json", "\"\(sentType)\"")]
        }
        guard let body = parsedBody else {
            return [violation("/", "a JSON body (\(spec.label))", "not JSON: \(ViolationText.excerpt(exchange.responseBody))")]
        }
        var found = schemaViolations(body, schema)
        if let documented = spec.code, code != documented {
            found.append(violation("/error/code", "\"\(documented)\"", ViolationText.describe(body["error"]?["code"])))
        }
        found += Self.requestIDMismatch(body, exchange, contract: contract.id)
        return found
    }
}
