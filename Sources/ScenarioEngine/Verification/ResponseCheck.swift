import ContractKit
import Foundation

/// Compares one answer with the documented response: status, required headers, body schema, error code and field.
struct ResponseCheck {
    let contracts: ContractSet
    let check: VerificationCheck
    /// Skip the `error.message` comparison, for servers that localise their messages.
    var ignoreMessages = false

    /// Every way `answer` differs from what the contract documents; empty when it matches.
    func mismatches(in answer: HTTPAnswer) -> [Mismatch] {
        var found: [Mismatch] = []
        let expected = check.response
        if answer.status != expected.status {
            found.append(Mismatch("status", expected: "\(expected.label)", actual: "\(answer.status) \(Self.excerpt(answer.body))"))
        }
        found += headerMismatches(answer)
        // A different status answers a different question; its body says nothing about this schema.
        guard answer.status == expected.status else { return found }
        guard let schema = expected.body else { return found }
        let body: JSONValue
        do {
            body = try JSONValue(parsing: answer.body)
        } catch {
            found.append(Mismatch("body", expected: "JSON (\(expected.contentType ?? "application/json"))",
                                  actual: "not JSON (\(error)): \(Self.excerpt(answer.body))"))
            return found
        }
        for violation in contracts.validate(body, against: schema) {
            let at = violation.pointer.isEmpty ? "/" : violation.pointer
            found.append(Mismatch("body \(at)", expected: violation.message,
                                  actual: Self.describe(JSONPointer.resolve(violation.pointer, in: body))))
        }
        if let code = expected.code {
            let actualCode = body["error"]?["code"]?.stringValue
            if actualCode != code {
                found.append(Mismatch("body /error/code", expected: "\"\(code)\"", actual: Self.describe(body["error"]?["code"])))
            }
            if let field = check.expectedField, body["error"]?["field"]?.stringValue != field {
                found.append(Mismatch("body /error/field", expected: "\"\(field)\"", actual: Self.describe(body["error"]?["field"])))
            }
            if check.expectedField == nil, check.expectsError, let field = body["error"]?["field"] {
                found.append(Mismatch("body /error/field", expected: "absent (the documented answer has no field)", actual: Self.describe(field)))
            }
            if !ignoreMessages, let message = check.expectedMessage, let actual = body["error"]?["message"]?.stringValue,
                Self.normalized(actual) != Self.normalized(message)
            {
                found.append(Mismatch("body /error/message", expected: "\"\(message)\"", actual: "\"\(actual)\" (--ignore-messages skips this)"))
            }
            if let header = answer.header("request-id"), let id = body["error"]?["requestId"]?.stringValue, header != id {
                found.append(Mismatch("body /error/requestId", expected: "the request-id header \"\(header)\"", actual: "\"\(id)\""))
            }
        }
        return found
    }

    /// The message with every UUID replaced, so an example's id matches the fresh one a check sends.
    static func normalized(_ message: String) -> String {
        message.replacingOccurrences(of: "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}", with: "<uuid>", options: .regularExpression)
    }

    private func headerMismatches(_ answer: HTTPAnswer) -> [Mismatch] {
        var found: [Mismatch] = []
        // The body parser answers before the request id exists: requestId "unknown" and no header, by design.
        let fromBodyParser = (try? JSONValue(parsing: answer.body))?["error"]?["requestId"]?.stringValue == "unknown"
        for header in check.response.headers {
            guard let value = answer.header(header.name) else {
                if header.required && !(fromBodyParser && header.name.lowercased() == "request-id") {
                    found.append(Mismatch("header \(header.name)", expected: "present (required on every answer)", actual: "missing"))
                }
                continue
            }
            for violation in contracts.validate(.string(value), against: header.schema) {
                found.append(Mismatch("header \(header.name)", expected: violation.message, actual: "\"\(value)\""))
            }
        }
        return found
    }

    /// A short, single-line rendering of a JSON value (or its absence) for reports.
    static func describe(_ value: JSONValue?) -> String {
        guard let value else { return "nothing (absent)" }
        let text = value.serialized()
        return text.count > 120 ? String(text.prefix(117)) + "..." : text
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
