import ContractKit
import Foundation

/// Turns a stateless endpoint's chosen example into the answer: its status, headers and body, the request id echoed
/// where the envelope carries it, and the values the response's `x-generate` names drawn fresh.
struct ExampleAnswer {
    let service: ServiceFile
    let now: Date

    /// The answer for `choice`; `requestID` replaces the example's echoed id.
    func response(_ choice: ExampleResponder.Choice, requestID: String?) -> ModelAnswer {
        var headers = HeaderFields()
        let idHeader = service.requestID?.header.lowercased()
        var body = choice.example.body
        if let contentType = choice.response.contentType, body != nil {
            let isJSON = contentType == "application/json" || contentType.hasSuffix("+json")
            // JSON is UTF-8; Express says so in the header, and so does every documented JSON answer.
            headers.add(name: "Content-Type", value: isJSON && !contentType.contains("charset") ? contentType + "; charset=utf-8" : contentType)
        }
        for (name, value) in choice.example.headers.sorted(by: { $0.key < $1.key })
        where name.lowercased() != idHeader && name.lowercased() != "content-type" {
            headers.add(name: name, value: value)
        }
        if let requestID, service.errorEnvelope.members.contains(.requestId), var value = body {
            let pointer = (service.errorEnvelope.key.map { "/" + $0 } ?? "") + "/requestId"
            if JSONPointer.resolve(pointer, in: value)?.stringValue != nil {
                Self.set(&value, at: JSONPointer.tokens(pointer) ?? [], to: .string(requestID))
                body = value
            }
        }
        if var value = body {
            for (pointer, generator) in choice.generated {
                guard let tokens = JSONPointer.tokens(pointer), !tokens.isEmpty else { continue }
                Self.set(&value, at: tokens, to: .string(generate(generator)))
            }
            body = value
        }
        var response = ModelAnswer(status: HTTPStatus(statusCode: choice.response.status), headers: headers,
                                    body: body.map { [UInt8]($0.serializedBytes()) } ?? [UInt8]())
        if let assumption = choice.assumption { response.assumptions.append(assumption) }
        return response
    }

    private func generate(_ generator: String) -> String {
        switch generator {
        case "now-iso-ms": return Timestamp.string(from: now)
        default: return UUID().uuidString.lowercased()
        }
    }

    /// Sets the member at `tokens` inside objects, creating none: a pointer to a missing place changes nothing.
    static func set(_ value: inout JSONValue, at tokens: [String], to new: JSONValue) {
        guard let first = tokens.first, case .object(var object) = value, let inner = object[first] else { return }
        if tokens.count == 1 {
            object[first] = new
        } else {
            var child = inner
            set(&child, at: Array(tokens.dropFirst()), to: new)
            object[first] = child
        }
        value = .object(object)
    }
}
