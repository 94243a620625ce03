import ContractKit
import Foundation
import MockBackend

/// The JSON body of one contract, as generation sees it: its properties with their schemas, a valid base body (the
/// smallest example), a valid value for each property (from any example), and which properties the schema's `anyOf`
/// ties together (such as email and phone: their pairs are where a tightened rule shows).
struct JSONBodyModel: Sendable {
    let contract: Contract
    /// The properties in schema order, with their schemas.
    let properties: [(name: String, schema: JSONValue)]
    /// The names the schema requires.
    let required: Set<String>
    /// The smallest example body: every variant starts from it.
    let base: JSONObject
    /// A valid value for each property the examples give.
    let validValues: [String: JSONValue]
    /// Properties named together in the root `anyOf`/`oneOf`: combined with each other in full.
    let linked: [String]

    /// The model of `contract`'s body, or nil when it takes no JSON object.
    init?(contract: Contract, contracts: ContractSet) {
        guard var schema = contract.request.body else { return nil }
        if let reference = schema["$ref"]?.stringValue {
            let name = (reference.split(separator: "/").last.map(String.init) ?? reference).replacingOccurrences(of: ".json", with: "")
            guard let shared = contracts.schema(named: name) else { return nil }
            schema = shared
        }
        guard let members = schema["properties"]?.objectValue, !members.isEmpty else { return nil }
        let bodies = contract.request.examples.compactMap { $0.body?.objectValue }
        guard let smallest = bodies.min(by: { $0.count < $1.count }) else { return nil }
        self.contract = contract
        properties = members.map { ($0.key, $0.value) }
        required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        base = smallest
        var values: [String: JSONValue] = [:]
        for body in bodies.reversed() { for (name, value) in body { values[name] = value } }
        validValues = values
        var linked: [String] = []
        for branch in (schema["anyOf"]?.arrayValue ?? []) + (schema["oneOf"]?.arrayValue ?? []) {
            for name in branch["properties"]?.objectValue?.keys ?? [] where !linked.contains(name) { linked.append(name) }
        }
        self.linked = linked
    }

    /// Each property alone, every variant, on the base body.
    func singleFieldCases() -> [GeneratedRequest] {
        properties.flatMap { property in
            variants(property.name).map { variant in request(setting: [(property.name, variant)]) }
        }
    }

    /// Linked properties in full cross product, then every other property paired with each linked one's blank and valid values.
    func pairCases() -> [GeneratedRequest] {
        var cases: [GeneratedRequest] = []
        for (i, first) in linked.enumerated() {
            for second in linked.dropFirst(i + 1) {
                for a in variants(first) where a.pairs {
                    for b in variants(second) where b.pairs { cases.append(request(setting: [(first, a), (second, b)])) }
                }
            }
        }
        for name in linked {
            let keys = variants(name).filter { ["absent", "\"\"", "\" \""].contains($0.label) }
            for property in properties where !linked.contains(property.name) {
                for other in variants(property.name) where other.pairs && other.label != "absent" {
                    for key in keys { cases.append(request(setting: [(name, key), (property.name, other)])) }
                }
            }
        }
        return cases
    }

    /// Whole-body cases: unknown and server-owned keys, a registered microchip, other roots, content types and sizes.
    func rootCases() -> [GeneratedRequest] {
        var cases: [GeneratedRequest] = []
        for key in ["nickname", "id", "managementPassword", "photoUrl", "createdAt", "updatedAt", "Species"] {
            var body = base
            body[key] = key == "photoUrl" ? .null : "x"
            cases.append(json(body, label: "an extra key \(key)"))
        }
        if properties.contains(where: { $0.name == "microchipNumber" }) {
            var body = base
            body["microchipNumber"] = .string(FreshValues.registeredMarker)
            cases.append(json(body, label: "a microchip the run registered already"))
        }
        let text = String(decoding: JSONValue.object(base).data(), as: UTF8.self)
        let raws: [(String, String?, String)] = [
            ("", "application/json", "an empty body"), ("{", "application/json", "malformed JSON"), ("[]", "application/json", "an array root"),
            ("\"text\"", "application/json", "a string root"), ("null", "application/json", "a null root"), ("{}", "application/json", "an empty object"),
            (text, "text/plain", "the valid body as text/plain"), (text, nil, "the valid body without a Content-Type"),
            (text, "application/json; charset=latin1", "an unsupported charset"), (text, "APPLICATION/JSON", "the media type in upper case"),
            (text, "application/json; charset=utf-8", "an explicit utf-8 charset"),
        ]
        for (body, type, label) in raws {
            var request = GeneratedRequest(contractID: contract.id, method: contract.method, path: RequestGenerator.concretePath(contract.pathTemplate),
                                           label: label, body: .raw(body, contentType: type), baseBody: base, readsBack: true)
            if type == nil { request.headers = [:] }
            cases.append(request)
        }
        if let limit = contract.request.maxBodyBytes {
            for (size, label) in [(limit - 400, "a body just under the size limit"), (limit + 1, "a body over the size limit")] {
                var body = base
                body["description"] = .string(String(repeating: "a", count: max(1, size - text.count)))
                cases.append(json(body, label: label))
            }
        }
        return cases
    }

    /// Two random properties with random variants each.
    func randomPair(using random: inout PetSpotRandom) -> GeneratedRequest? {
        guard properties.count >= 2 else { return nil }
        let names = properties.map(\.name).shuffled(using: &random).prefix(2)
        var settings: [(String, FieldVariant)] = []
        for name in names {
            guard let variant = variants(name).randomElement(using: &random) else { return nil }
            settings.append((name, variant))
        }
        return request(setting: settings)
    }

    private func variants(_ name: String) -> [FieldVariant] {
        guard let schema = properties.first(where: { $0.name == name })?.schema else { return [] }
        return FieldVariants.variants(name: name, schema: schema, valid: validValues[name])
    }

    private func request(setting settings: [(String, FieldVariant)]) -> GeneratedRequest {
        var body = base
        for (name, variant) in settings { body[name] = variant.value }
        return json(body, label: settings.map { "\($0.0) \($0.1.label)" }.joined(separator: " and "))
    }

    private func json(_ body: JSONObject, label: String) -> GeneratedRequest {
        var request = GeneratedRequest(contractID: contract.id, method: contract.method, path: RequestGenerator.concretePath(contract.pathTemplate),
                                       label: label, body: .json(.object(body)), baseBody: base, readsBack: true)
        request.requiredKeys = required
        return request
    }
}
