import ContractKit
import Foundation

/// The client's side of an exchange against its contract: content type, JSON body schema or multipart parts, query,
/// documented headers and the auth scheme. Every finding is the client's fault.
struct RequestValidation {
    /// The contract's request, compiled. The check holds the parts it reads, not the contract set or the whole contract:
    /// copying those per exchange cost a retain and a release of each of their members.
    let check: CompiledRequestCheck
    /// The contract's id, for the findings.
    let contractID: String
    /// The contract's request.
    let spec: RequestSpec
    let exchange: Exchange
    let parameters: [String: String]

    func violations() -> [ExchangeViolation] {
        var found: [ExchangeViolation] = []
        for parameter in check.pathParameters {
            guard let value = parameters[parameter.spec.name] else { continue }
            for v in parameter.violations(value) {
                found.append(violation("path:\(parameter.spec.name)", v.message, "\"\(ViolationText.cut(value))\""))
            }
        }
        if !check.query.isEmpty {
            let query = exchange.queryItems
            for parameter in check.query {
                let name = parameter.spec.name
                guard let value = query.first(where: { $0.name == name })?.value else {
                    if parameter.spec.required { found.append(violation("query:\(name)", "present (required)", "missing")) }
                    continue
                }
                for v in parameter.violations(value) {
                    found.append(violation("query:\(name)", v.message, "\"\(ViolationText.cut(value))\""))
                }
            }
        }
        for parameter in check.headers {
            let name = parameter.spec.name
            guard let value = exchange.requestHeader(name) else {
                if parameter.spec.required { found.append(violation("header:\(name)", "present (required)", "missing")) }
                continue
            }
            for v in parameter.violations(value) {
                found.append(violation("header:\(name)", v.message, "\"\(ViolationText.cut(value))\""))
            }
        }
        if let auth = spec.auth { found += authViolations(auth) }
        found += bodyViolations(spec, compiled: check.body)
        return found
    }

    private func violation(_ pointer: String, _ expected: String, _ got: String) -> ExchangeViolation {
        ExchangeViolation(contract: contractID, pointer: pointer, expected: expected, got: got, side: .client)
    }

    private func authViolations(_ auth: AuthRequirement) -> [ExchangeViolation] {
        let pointer = "header:\(auth.header)"
        guard let value = exchange.requestHeader(auth.header), !value.trimmingCharacters(in: .whitespaces).isEmpty else {
            return [violation(pointer, "\(auth.scheme) credentials\(auth.credentials.map { " (\($0))" } ?? "")", "missing")]
        }
        let scheme = value.split(separator: " ", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        switch auth.scheme {
        case "basic":
            guard scheme == "basic" else {
                return [violation(pointer, "the Basic scheme", "the \(scheme.isEmpty ? "empty" : scheme) scheme")]
            }
            if basicAuthUser(value) == nil {
                return [violation(pointer, "Basic base64(user:password)", "credentials that do not decode to user:password")]
            }
        case "bearer":
            if scheme != "bearer" { return [violation(pointer, "the Bearer scheme", "the \(scheme) scheme")] }
        default:
            break
        }
        return []
    }

    private func bodyViolations(_ spec: RequestSpec, compiled: CompiledSchema?) -> [ExchangeViolation] {
        guard let documented = spec.contentType, spec.body != nil || !spec.parts.isEmpty else { return [] }
        let sent = exchange.requestHeader("content-type")
        guard let sent, Exchange.mediaType(sent) == Exchange.mediaType(documented)
              || (Exchange.isJSON(documented) && Exchange.isJSON(sent)) else {
            return [violation("header:Content-Type", documented, sent.map { "\"\($0)\"" } ?? "missing")]
        }
        if spec.body != nil {
            guard exchange.requestBodySize <= Exchange.jsonValidationLimit else { return [] }
            let body: JSONValue
            if let parsed = exchange.parsedRequestBody {
                body = parsed
            } else {
                do {
                    body = try JSONValue(parsing: exchange.requestBody)
                } catch {
                    return [violation("/", "a JSON body", "not JSON (\(error.description)): \(ViolationText.excerpt(exchange.requestBody))")]
                }
            }
            guard let compiled else { return [] }  // compiled whenever the request documents a body schema
            let found = compiled.validate(body)
            return found.map {
                violation($0.pointer.isEmpty ? "/" : $0.pointer, $0.message, ViolationText.describe(JSONPointer.resolve($0.pointer, in: body)))
            }
        }
        return partViolations(spec.parts)
    }

    /// Looks for each required part's `name="…"` in the first bytes; a part beyond them in a cut body is not reported.
    private func partViolations(_ parts: [MultipartPart]) -> [ExchangeViolation] {
        let text = String(decoding: exchange.requestBody.prefix(Exchange.nonJSONValidationLimit), as: UTF8.self)
        let complete = exchange.requestBodySize <= Exchange.nonJSONValidationLimit
        return parts.filter(\.required).compactMap { part in
            if text.contains("name=\"\(part.name)\"") || !complete { return nil }
            return violation("part:\(part.name)", "a \(part.kind) part named \(part.name) (required)", "no such part")
        }
    }
}
