import ContractKit
import Foundation
import NIOCore

/// Checks an answer of the mock against its contract: a documented status (and error code), a body that fits the schema, the required headers.
///
/// A mock that breaks its own contract would teach clients the wrong thing, so in debug builds every answer goes through this.
struct ResponseContractCheck: Sendable {
    let contracts: ContractSet

    /// Every way `response` breaks the contract `contractID`; for answers outside any contract only the error envelope is checked.
    func problems(contractID: String?, response: MockResponse) -> [String] {
        let body = Data(response.body.readableBytesView)
        let status = Int(response.status.code)
        let parsed = body.isEmpty ? nil : try? JSONValue(parsing: body)
        let errorCode = parsed?["error"]?["code"]?.stringValue
        var problems: [String] = []
        // The body parser's own answers come before the request id: "unknown" and no header, by design.
        let fromBodyParser = parsed?["error"]?["requestId"]?.stringValue == "unknown" && response.headers.first(name: "request-id") == nil
        if let code = errorCode, !fromBodyParser, let requestID = parsed?["error"]?["requestId"]?.stringValue,
            requestID != response.headers.first(name: "request-id")
        {
            problems.append("error.requestId \(requestID) differs from the request-id header (code \(code))")
        }
        guard let contractID, let contract = contracts.contract(id: contractID) else {
            guard status >= 400 else { return problems }
            guard let envelope = contracts.schema(named: "ErrorEnvelope") else { return problems }
            return problems + check(body: body, parsed: parsed, against: envelope)
        }
        guard let spec = contract.response(status: status, code: errorCode) else {
            let what = errorCode.map { "status \(status) with code \($0)" } ?? "status \(status)"
            return problems + ["\(contract.id): \(what) is not documented"]
        }
        for header in spec.headers where header.required && !(fromBodyParser && header.name.lowercased() == "request-id") {
            guard let value = response.headers.first(name: header.name) else {
                problems.append("\(contract.id) \(spec.label): required header \(header.name) is missing")
                continue
            }
            for violation in contracts.validate(.string(value), against: header.schema) {
                problems.append("\(contract.id) \(spec.label): header \(header.name): \(violation.message)")
            }
        }
        if let schema = spec.body {
            problems += check(body: body, parsed: parsed, against: schema).map { "\(contract.id) \(spec.label): \($0)" }
        } else if let documented = spec.contentType {
            let sent = response.headers.first(name: "Content-Type") ?? "none"
            if !Self.mediaType(sent, matches: documented) {
                problems.append("\(contract.id) \(spec.label): Content-Type \(sent) does not match the documented \(documented)")
            }
        } else if !body.isEmpty {
            problems.append("\(contract.id) \(spec.label): the contract documents no body but \(body.count) bytes were sent")
        }
        return problems
    }

    /// Whether a sent Content-Type (parameters ignored) fits a documented one such as `image/*`.
    static func mediaType(_ sent: String, matches documented: String) -> Bool {
        func media(_ s: String) -> String { s.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? "" }
        let (a, b) = (media(sent), media(documented))
        if b.hasSuffix("/*") { return a.hasPrefix(String(b.dropLast())) }
        return a == b
    }

    private func check(body: Data, parsed: JSONValue?, against schema: JSONValue) -> [String] {
        guard let parsed else { return ["the body is not JSON (\(body.count) bytes)"] }
        return contracts.validate(parsed, against: schema).map(\.description)
    }
}
