import ContractKit
import ContractModel
import MockBackend
import Foundation

/// Compares one answer with the documented response: status, required headers, body schema, error code and field.
struct ResponseCheck {
    let contracts: ContractSet
    let check: VerificationCheck
    /// Skip the `error.message` comparison, for servers that localise their messages.
    var ignoreMessages = false

    /// Every way `answer` differs from what the contract documents; empty when it matches. Each carries its `DriftKey`,
    /// so the same drift from several examples is reported once.
    func mismatches(in answer: HTTPAnswer) -> [Mismatch] {
        compared(answer).map { mismatch in
            var mismatch = mismatch
            // A wrong status is one drift per answer the server gave instead: its error code and field say which refusal.
            let error = (try? JSONValue(parsing: answer.body))?["error"]
            let refusal = [error?["code"]?.stringValue, error?["field"]?.stringValue].compactMap { $0 }.joined(separator: " ")
            mismatch.drift = mismatch.subject == "status"
                ? "status documented \(mismatch.expected), answered \(answer.status) \(refusal)"
                : mismatch.subject.hasPrefix("body ")
                    ? DriftKey.body(status: check.response.status, pointer: String(mismatch.subject.dropFirst(5)), message: mismatch.expected)
                    : "\(check.response.status) \(mismatch.subject) \(DriftKey.rule(mismatch.expected))"
            return mismatch
        }
    }

    private func compared(_ answer: HTTPAnswer) -> [Mismatch] {
        var found: [Mismatch] = []
        let expected = check.response
        if answer.status != expected.status {
            found.append(Mismatch("status", expected: codeStated ? expected.label : String(expected.status), actual: "\(answer.status) \(Self.excerpt(answer.body))"))
        }
        found += headerMismatches(answer)
        // A different status answers a different question; its body says nothing about this schema.
        guard answer.status == expected.status else { return found }
        guard expected.body != nil else { return found }
        let body: JSONValue
        do {
            body = try JSONValue(parsing: answer.body)
        } catch {
            found.append(Mismatch("body", expected: "JSON (\(expected.contentType ?? "application/json"))",
                                  actual: "not JSON (\(error)): \(Self.excerpt(answer.body))"))
            return found
        }
        found += shared(answer, body: body).map { Mismatch("body \($0.pointer)", expected: $0.expected, actual: $0.got) }
        if let code = expected.code {
            let actualCode = body["error"]?["code"]?.stringValue
            if codeStated, actualCode != code {
                found.append(Mismatch("body /error/code", expected: "\"\(code)\"", actual: ViolationText.describe(body["error"]?["code"])))
            }
            if exampleStated, let field = check.expectedField, body["error"]?["field"]?.stringValue != field {
                found.append(Mismatch("body /error/field", expected: "\"\(field)\"", actual: ViolationText.describe(body["error"]?["field"])))
            }
            // A folder pins an absent field; a document's example only shows what it shows (its schema says the rest).
            if contracts.openAPISource == nil, check.expectedField == nil, check.expectsError, let field = body["error"]?["field"] {
                found.append(Mismatch("body /error/field", expected: "absent (the documented answer has no field)", actual: ViolationText.describe(field)))
            }
            if !ignoreMessages, exampleStated, let message = check.expectedMessage, let actual = body["error"]?["message"]?.stringValue,
                Self.normalized(actual) != Self.normalized(message)
            {
                found.append(Mismatch("body /error/message", expected: "\"\(message)\"", actual: "\"\(actual)\"", hint: "--ignore-messages skips this"))
            }
            if let header = answer.header("request-id"), let id = body["error"]?["requestId"]?.stringValue, header != id {
                found.append(Mismatch("body /error/requestId", expected: "the request-id header \"\(header)\"", actual: "\"\(id)\""))
            }
        }
        return found
    }

    /// The `body <pointer>` subjects where the answer breaks only a `format` of its documented schema, for
    /// `verify --formats lenient`, which reports them as notes.
    func formatSubjects(in answer: HTTPAnswer) -> Set<String> {
        guard answer.status == check.response.status, let schema = check.response.body, let body = try? JSONValue(parsing: answer.body) else { return [] }
        let all = contracts.validate(body, against: schema)
        let formats = Set(all.filter { $0.keyword == "format" }.map(\.pointer))
        let others = Set(all.filter { $0.keyword != "format" }.map(\.pointer))
        return Set(formats.subtracting(others).map { "body " + ($0.isEmpty ? "/" : $0) })
    }

    /// Whether the contracts state the answer's error code: a document's error answer without one gets `HTTP_<status>`
    /// from the translation, which no server can be held to.
    var codeStated: Bool {
        guard let map = contracts.openAPISource, let code = check.response.code, let key = documentKey else { return true }
        return map.states(code: code, status: check.response.status, key: key)
    }

    /// Whether the example is the document's own: one made from a schema holds the least values it allows, so its
    /// field and message say nothing about the server.
    var exampleStated: Bool {
        guard let map = contracts.openAPISource, let key = documentKey else { return true }
        return map.states(example: check.exampleName, status: check.response.status, key: key)
    }

    private var documentKey: String? {
        contracts.contract(id: check.contractID).map { ContractCitations.relativePath(of: $0.file, in: contracts.directory) }
    }

    /// The message with every UUID replaced, so an example's id matches the fresh one a check sends.
    static func normalized(_ message: String) -> String {
        message.replacingOccurrences(of: "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}", with: "<uuid>", options: .regularExpression)
    }

    /// Headers (and, given a body, its schema) are checked by the one exchange validator the proxy and the mock use too.
    private func headerMismatches(_ answer: HTTPAnswer) -> [Mismatch] {
        shared(answer, body: nil).map { Mismatch("header \($0.pointer.dropFirst("header:".count))", expected: $0.expected, actual: $0.got) }
    }

    private func shared(_ answer: HTTPAnswer, body: JSONValue?) -> [ExchangeViolation] {
        guard let contract = contracts.contract(id: check.contractID) else { return [] }
        // Checked the moment the answer arrives, so now is when it was answered (for a server without a Date header).
        let exchange = Exchange(method: contract.method, path: contract.pathTemplate, status: answer.status,
                                responseHeaders: answer.headers.map { HeaderField(name: $0.name, value: $0.value) }, answeredAt: Date())
        let all = ExchangeValidator(contracts: contracts).violations(of: exchange, against: check.response, contract: contract, body: body)
        return all.filter { body == nil ? $0.pointer.hasPrefix("header:") : $0.pointer.hasPrefix("/") }
    }

    /// The start of a body, for reports.
    static func excerpt(_ data: Data) -> String {
        if data.isEmpty { return "(empty body)" }
        let text = String(decoding: data.prefix(200), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
        return data.count > 200 ? text + "..." : text
    }
}

extension HTTPAnswer {
    /// The first value of a header, compared case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
