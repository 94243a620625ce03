import Foundation

/// Translates a contract set into a Pact specification v3 file: one interaction per named response
/// example, so Pact tooling (the stub server, a provider verifier) can replay the contracts.
///
/// A contract example says what the server answers and, sometimes, which request provokes it. The
/// condition that is not in the request (an unknown id, a failing backend) becomes the interaction's
/// provider state, which is how Pact tells interactions with the same request apart. What Pact v3
/// cannot carry (multipart uploads, binary bodies, bodies too large to record) is left out and listed
/// in `PactExport.skipped`, never dropped silently.
public struct PactExporter {
    /// The contracts to export.
    public let contracts: ContractSet
    /// The pact's consumer name.
    public var consumer = "PetSpot iOS"
    /// The pact's provider name.
    public var provider = "PetSpot backend"

    /// The path parameter value used for 404 examples that do not name one: an id nothing has.
    static let unknownValue = "unknown"

    /// An exporter for `contracts`.
    public init(contracts: ContractSet) {
        self.contracts = contracts
    }

    /// The pact and the examples left out of it.
    public func export() -> PactExport {
        var interactions: [JSONValue] = []
        var skipped: [PactExport.Skipped] = []
        var descriptions = Set<String>()
        for contract in contracts.contracts {
            for response in contract.responses {
                for example in response.examples {
                    do {
                        var description = "\(contract.id): \(example.name)"
                        // Example names are unique per response; Pact wants them unique per file.
                        if descriptions.contains(description) { description += " (\(response.label))" }
                        descriptions.insert(description)
                        interactions.append(try interaction(contract, response, example, description: description))
                    } catch {
                        skipped.append(PactExport.Skipped(contractID: contract.id, exampleName: example.name, reason: error.reason))
                    }
                }
            }
        }
        var metadata: JSONObject = ["pactSpecification": ["version": "3.0.0"]]
        if !skipped.isEmpty {
            metadata["spotcheck"] = ["skipped": .array(skipped.map {
                ["description": .string("\($0.contractID): \($0.exampleName)"), "reason": .string($0.reason)]
            })]
        }
        let document: JSONValue = [
            "consumer": ["name": .string(consumer)],
            "provider": ["name": .string(provider)],
            "interactions": .array(interactions),
            "metadata": .object(metadata),
        ]
        return PactExport(document: document, interactionCount: interactions.count, skipped: skipped)
    }

    /// Why an example cannot become an interaction.
    struct Unexpressible: Error {
        let reason: String
    }

    func interaction(_ contract: Contract, _ response: ResponseSpec, _ example: ContractExample,
                     description: String) throws(Unexpressible) -> JSONValue {
        let spelled = example.request
        if let contentType = contract.request.contentType, contentType.lowercased().hasPrefix("multipart/") {
            throw Unexpressible(reason: "the request is a \(contentType) upload with a file part; Pact v3 bodies are JSON or text, so it cannot be recorded")
        }
        if response.status == 413, spelled?.body == nil, spelled?.rawBody == nil {
            let limit = contract.request.maxBodyBytes.map { " (maxBodyBytes \($0))" } ?? ""
            throw Unexpressible(reason: "it needs a request body over the contract's size limit\(limit), too large to record")
        }
        if let contentType = response.contentType, example.body == nil {
            throw Unexpressible(reason: Self.isJSON(contentType)
                ? "the example has no body to record"
                : "the answer is a binary \(contentType) body and the example records no bytes")
        }

        var values: [String: String] = [:]
        for name in contract.path.parameterNames {
            if let value = spelled?.pathParameters[name] ?? (response.status == 404 ? Self.unknownValue : exampleValue(name, in: example)) {
                values[name] = value
            } else {
                throw Unexpressible(reason: "no example gives a value for the path parameter {\(name)}")
            }
        }
        var request: JSONObject = ["method": .string(contract.method), "path": .string(contract.path.expand(values))]
        if let query = spelled?.query, !query.isEmpty {
            request["query"] = .object(JSONObject(query.keys.sorted().map { ($0, [.string(query[$0] ?? "")]) }))
        }

        var body: JSONValue?
        if let json = spelled?.body {
            body = json
        } else if let raw = spelled?.rawBody {
            body = .string(raw)
        } else if contract.request.body != nil {
            // An answer that does not depend on the body (a failing backend) is provoked by a valid one.
            guard let first = contract.request.examples.first?.body else {
                throw Unexpressible(reason: "the request needs a body and the contract has no request example to send")
            }
            body = first
        }
        var headers = JSONObject()
        let spelledHeaders = spelled?.headers ?? [:]
        if body != nil, !spelledHeaders.keys.contains(where: { $0.lowercased() == "content-type" }) {
            headers["Content-Type"] = .string(contract.request.contentType ?? "application/json")
        }
        for name in spelledHeaders.keys.sorted() { headers[name] = .string(spelledHeaders[name] ?? "") }
        // An example that spells out its request spells out its credentials (or their absence); a 401
        // example without a request is the one that sends none.
        var matchingRules: JSONObject?
        if spelled == nil, response.status != 401, let auth = contract.request.auth {
            let (value, pattern) = credentials(auth, example: example)
            headers[auth.header] = .string(value)
            matchingRules = ["header": .object([auth.header: ["matchers": [["match": "regex", "regex": .string(pattern)]]]])]
        }
        if !headers.isEmpty { request["headers"] = .object(headers) }
        if let body { request["body"] = body }
        if let matchingRules { request["matchingRules"] = .object(matchingRules) }

        var answer: JSONObject = ["status": .number(Double(response.status))]
        if let contentType = response.contentType, let exampleBody = example.body {
            answer["headers"] = ["Content-Type": .string(contentType)]
            answer["body"] = exampleBody
        }
        return [
            "description": .string(description),
            "providerStates": [["name": .string(response.when)]],
            "request": .object(request),
            "response": .object(answer),
        ]
    }

    /// An example header value for `auth` and the pattern any valid value matches. Basic credentials
    /// are built from the contracts' example values (e.g. `{id}:{managementPassword}`) when they have them.
    func credentials(_ auth: AuthRequirement, example: ContractExample) -> (value: String, pattern: String) {
        switch auth.scheme {
        case "basic":
            let plain = auth.credentials.flatMap { fill($0, example: example) } ?? "user:password"
            return ("Basic " + Data(plain.utf8).base64EncodedString(), "^(?i:basic) .+$")
        case "bearer":
            return ("Bearer token", "^(?i:bearer) .+$")
        default:
            return ("token", "^.+$")
        }
    }

    /// `template` with every `{name}` replaced by an example value; nil when one has none.
    func fill(_ template: String, example: ContractExample) -> String? {
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            out += rest[..<open]
            guard let value = exampleValue(String(rest[rest.index(after: open)..<close]), in: example) else { return nil }
            out += value
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// A string value the examples give for `name`: the example's own body member first, then the first
    /// success example of any contract that has one (the id a create answered, its password).
    func exampleValue(_ name: String, in example: ContractExample) -> String? {
        if let own = example.body?[name]?.stringValue { return own }
        for contract in contracts.contracts {
            for response in contract.responses where (200..<300).contains(response.status) {
                for candidate in response.examples {
                    if let value = candidate.body?[name]?.stringValue { return value }
                }
            }
        }
        return nil
    }

    static func isJSON(_ contentType: String) -> Bool {
        let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return type == "application/json" || type.hasSuffix("+json")
    }
}
