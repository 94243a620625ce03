import ContractKit
import ContractModel
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
    /// The body schema (a `$ref` followed).
    let schema: JSONValue
    /// The UTC day date checks are bounded by.
    let today: String
    /// The contract set's validator: a branch's rules are compiled with it, as the model compiles them.
    let validator: SchemaValidator
    /// Each property's variants, worked out once (pairs reuse them many times).
    private let variantsByName: [String: [FieldVariant]]

    /// The model of `contract`'s body, or nil when it takes no JSON object.
    init?(contract: Contract, contracts: ContractSet, today: String = DayArithmetic.today()) {
        guard var schema = contract.request.body else { return nil }
        if let reference = schema["$ref"]?.stringValue {
            guard let shared = contracts.referencedSchema(reference) else { return nil }
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
        self.schema = schema
        self.today = today
        validator = contracts.validator
        var variantsByName: [String: [FieldVariant]] = [:]
        for (name, member) in properties {
            variantsByName[name] = FieldVariants.variants(name: name, schema: StatedRules.resolve(member, contracts.schemas), valid: values[name],
                                                          required: required.contains(name), validator: contracts.validator, today: today)
        }
        self.variantsByName = variantsByName
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
            // Absent and empty only: white space next to another field's edge adds cases, not rules (the budget stays).
            let keys = variants(name).filter { ["absent", "\"\""].contains($0.label) }
            for property in properties where !linked.contains(property.name) {
                for other in variants(property.name) where other.pairs && other.label != "absent" {
                    for key in keys { cases.append(request(setting: [(name, key), (property.name, other)])) }
                }
            }
        }
        return cases
    }

    /// Whole-body cases: unknown and server-owned keys, a unique value the run registered, other roots, content types and sizes.
    func rootCases() -> [GeneratedRequest] {
        var cases: [GeneratedRequest] = []
        for key in ["nickname", "id", "managementPassword", "photoUrl", "createdAt", "updatedAt", "Species"] where !properties.contains(where: { $0.name == key }) {
            var body = base
            body[key] = key == "photoUrl" ? .null : "x"
            cases.append(json(body, label: "an extra key \(key)", exercises: [rootRule("additionalProperties")]))
        }
        cases += duplicateCases()
        let text = String(decoding: JSONValue.object(base).data(), as: UTF8.self)
        let undefined = rootRule("undefined")
        let raws: [(String, String?, String, [String])] = [
            ("", "application/json", "an empty body", [rootRule("anyOf"), rootRule("oneOf")]),
            ("{", "application/json", "malformed JSON", []),
            ("[]", "application/json", "an array root", [rootRule("type")]),
            ("\"text\"", "application/json", "a string root", [rootRule("type")]), ("null", "application/json", "a null root", [rootRule("type")]),
            ("{}", "application/json", "an empty object", [rootRule("anyOf"), rootRule("oneOf")] + required.map { propertyRule($0, "required") }),
            (text, "text/plain", "the valid body as text/plain", [undefined]), (text, nil, "the valid body without a Content-Type", [undefined]),
            (text, "application/json; charset=latin1", "an unsupported charset", []), (text, "APPLICATION/JSON", "the media type in upper case", []),
            (text, "application/json; charset=utf-8", "an explicit utf-8 charset", []),
        ]
        for (body, type, label, exercises) in raws {
            var request = GeneratedRequest(contractID: contract.id, method: contract.method, path: RequestGenerator.concretePath(contract.pathTemplate),
                                           label: label, body: .raw(body, contentType: type), baseBody: base, readsBack: true)
            if type == nil { request.headers = [:] }
            request.exercises = exercises
            cases.append(request)
        }
        cases += sizeCases()
        cases += rawTextCases()
        return cases
    }

    /// Values only raw JSON text carries, each in the valid body and read back: integers past 2^53 and more decimals
    /// than a double holds in each number property, escaped lone surrogates in the first free-text property. The model
    /// parses them as the contracts' parser does; what it stores must come back the same from the server.
    func rawTextCases() -> [GeneratedRequest] {
        var cases: [GeneratedRequest] = []
        func add(_ text: String, _ label: String) {
            var request = GeneratedRequest(contractID: contract.id, method: contract.method, path: RequestGenerator.concretePath(contract.pathTemplate),
                                           label: label, body: .raw(text, contentType: "application/json"), baseBody: base, readsBack: true)
            request.requiredKeys = required
            cases.append(request)
        }
        for (name, member) in properties where ["number", "integer"].contains(member["type"]?.stringValue ?? "") {
            for number in EdgeValues.rawNumbers { add(EdgeValues.splice(base, name: name, raw: number.text, quoted: false), "\(name) \(number.label)") }
        }
        if let free = properties.first(where: { $0.schema["type"]?.stringValue == "string" && $0.schema["pattern"] == nil && $0.schema["enum"] == nil
            && $0.schema["format"] == nil })?.name {
            for escape in EdgeValues.rawEscapes { add(EdgeValues.splice(base, name: free, raw: escape.text, quoted: true), "\(free) with \(escape.label)") }
            for length in EdgeValues.storageLengths where !EdgeValues.everyFieldLengths.contains(length) {
                var body = base
                body[free] = .string(String(repeating: "a", count: length))
                add(String(decoding: JSONValue.object(body).data(), as: UTF8.self), "\(free) \(length) characters")
            }
        }
        return cases
    }

    /// A value the run holds already, for each field the contract declares unique (`x-state.unique`): the marker the
    /// sides resolve to the value the run's first record registered (or, for a collection no slot fills, the run's own
    /// value, which the first such case registers), and in upper case where the stored key is lower-cased.
    func duplicateCases() -> [GeneratedRequest] {
        let unique = contract.source["x-state"]?["unique"]?.objectValue?.keys ?? []
        let richest = contract.request.examples.compactMap { $0.body?.objectValue }.max { $0.count < $1.count } ?? base
        var cases: [GeneratedRequest] = []
        for field in unique {
            guard let example = richest[field]?.stringValue, !example.isEmpty else { continue }
            var body = base
            body[field] = .string(FreshValues.registeredMarker + example)
            cases.append(json(body, label: "a \(field) the run registered already", exercises: [uniqueRule(field)]))
            let schema = properties.first { $0.name == field }?.schema
            if schema?["x-stored-key"] != nil {
                body[field] = .string(FreshValues.registeredUpperMarker + example)
                cases.append(json(body, label: "a \(field) the run registered already, in upper case",
                                  exercises: [uniqueRule(field), propertyRule(field, "x-stored-key")]))
            }
        }
        return cases
    }

    /// Bodies of exactly one byte under, on and over the stated body limit, filled in the first free-text property
    /// (plain letters: no pattern, enum or length rule refuses them, sanitizing leaves them as they are), else in an
    /// unknown key: the size is checked before the body is read, so the limit is reached either way.
    func sizeCases() -> [GeneratedRequest] {
        guard let limit = contract.request.maxBodyBytes else { return [] }
        let free = properties.first(where: { property in
            let schema = property.schema
            return schema["type"]?.stringValue == "string" && schema["pattern"] == nil && schema["enum"] == nil && schema["maxLength"] == nil
                && schema["allOf"] == nil && schema["format"] == nil
        })?.name ?? "padding"
        var cases: [GeneratedRequest] = []
        for (size, label) in [(limit - 1, "a body one byte under the size limit"), (limit, "a body of exactly the size limit"),
                              (limit + 1, "a body one byte over the size limit")] {
            var body = base
            body[free] = ""
            let overhead = JSONValue.object(body).data().count
            body[free] = .string(String(repeating: "a", count: max(1, size - overhead)))
            // Like a file, a body counts for the limit once it reaches it (which side the limit itself falls on is the server's).
            cases.append(json(body, label: label, exercises: size >= limit ? [StatedRule.id(contract.id, "/request", "maxBodyBytes")] : []))
        }
        return cases
    }

    /// An unknown key next to each other issue, one per rule of each property: which of the two a server names first
    /// shows the order it checks in.
    func unknownKeyCases() -> [GeneratedRequest] {
        var cases: [GeneratedRequest] = []
        let unknown = "nickname"
        guard !properties.contains(where: { $0.name == unknown }) else { return [] }
        for property in properties {
            var seen = Set<String>()
            for variant in variants(property.name).reversed() {
                for keyword in variant.exercises where seen.insert(keyword).inserted {
                    var body = base
                    body[property.name] = variant.value
                    body[unknown] = "x"
                    cases.append(json(body, label: "an unknown key with \(property.name) \(variant.label)",
                                      exercises: [rootRule("additionalProperties"), propertyRule(property.name, keyword)]))
                }
            }
        }
        return cases
    }

    /// Two random properties with random variants each.
    func randomPair(using random: inout ModelRandom) -> GeneratedRequest? {
        guard properties.count >= 2 else { return nil }
        let names = properties.map(\.name).shuffled(using: &random).prefix(2)
        var settings: [(String, FieldVariant)] = []
        for name in names {
            guard let variant = variants(name).randomElement(using: &random) else { return nil }
            settings.append((name, variant))
        }
        return request(setting: settings)
    }

    func variants(_ name: String) -> [FieldVariant] {
        variantsByName[name] ?? []
    }

    private func request(setting settings: [(String, FieldVariant)]) -> GeneratedRequest {
        var body = base
        for (name, variant) in settings { body[name] = variant.value }
        var exercises = settings.flatMap { name, variant in variant.exercises.map { propertyRule(name, $0) } }
        if !satisfiesRootAlternatives(body) { exercises += [rootRule("anyOf"), rootRule("oneOf")] }
        // A body that breaks nothing is stored and read back: what the contract keeps secret must not come back.
        if exercises.isEmpty { exercises.append(StatedRule.id(contract.id, "/x-state", "secret")) }
        return json(body, label: settings.map { "\($0.0) \($0.1.label)" }.joined(separator: " and "), exercises: exercises)
    }

    private func json(_ body: JSONObject, label: String, exercises: [String] = []) -> GeneratedRequest {
        var request = GeneratedRequest(contractID: contract.id, method: contract.method, path: RequestGenerator.concretePath(contract.pathTemplate),
                                       label: label, body: .json(.object(body)), baseBody: base, readsBack: true)
        request.requiredKeys = required
        request.exercises = exercises
        return request
    }

    /// Whether `body` meets at least one branch of the root `anyOf`/`oneOf` (each branch's required keys present and
    /// their values within the branch's rules); true when there is none.
    private func satisfiesRootAlternatives(_ body: JSONObject) -> Bool {
        let branches = (schema["anyOf"]?.arrayValue ?? []) + (schema["oneOf"]?.arrayValue ?? [])
        guard !branches.isEmpty else { return true }
        return branches.contains { branch in
            let needed = branch["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
            guard needed.allSatisfy({ body[$0] != nil }) else { return false }
            return (branch["properties"]?.objectValue ?? JSONObject()).allSatisfy { name, rule in
                guard let value = body[name] else { return true }
                return RuleCheck.passes(value, schema: rule, validator: validator, today: today)
            }
        }
    }

    func propertyRule(_ name: String, _ keyword: String) -> String {
        StatedRule.id(contract.id, "/request/body/properties/\(name)", keyword)
    }

    func rootRule(_ keyword: String) -> String {
        StatedRule.id(contract.id, "/request/body", keyword)
    }

    /// The rule a duplicate of `field` exercises: the contract's `x-state.unique` entry for it.
    func uniqueRule(_ field: String) -> String {
        StatedRule.id(contract.id, "/x-state/unique/\(field)", "unique")
    }
}
