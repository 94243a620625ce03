import ContractKit
import ContractModel
import Foundation

/// One rule a contract states, which generated cases should exercise: a JSON Schema keyword, an `x-…` keyword, an
/// `x-errors` entry, a size limit or an `x-state` declaration, at one place in one contract.
public struct StatedRule: Sendable, Hashable {
    /// The contract that states it.
    public let contractID: String
    /// Where, as a JSON pointer into the contract with `$ref`s followed: `/request/body/properties/petName`.
    public let location: String
    /// The keyword or check: `maxLength`, `required`, `x-check`, `unique`, `maxBodyBytes`, an auth check's name.
    public let keyword: String

    /// A rule of `contractID` at `location`.
    public init(contractID: String, location: String, keyword: String) {
        self.contractID = contractID
        self.location = location
        self.keyword = keyword
    }

    /// `createAnnouncement /request/body/properties/petName maxLength`: how cases tag it and reports list it.
    public var id: String { Self.id(contractID, location, keyword) }

    /// The id of the rule `keyword` at `location` in `contractID`.
    public static func id(_ contractID: String, _ location: String, _ keyword: String) -> String {
        "\(contractID) \(location) \(keyword)"
    }
}

/// Reads every stated rule from the contracts' JSON (not from any compiled model): request body properties and root,
/// query parameters, auth, multipart parts, size limits and `x-state`, in file order.
public enum StatedRules {
    /// Keywords that describe rather than constrain; never rules.
    static let annotations: Set<String> = ["description", "title", "examples", "example", "$schema", "$id", "$comment", "x-errors",
                                           "properties", "required", "additionalProperties", "items", "deprecated", "readOnly", "writeOnly"]

    /// Every rule of every contract in `contracts`.
    public static func rules(in contracts: ContractSet) -> [StatedRule] {
        contracts.contracts.flatMap { rules(contractID: $0.id, source: $0.source, schemas: contracts.schemas) }
    }

    /// Every rule one contract document states; `schemas` resolves `$ref`s by file name without extension.
    public static func rules(contractID: String, source: JSONValue, schemas: [String: JSONValue]) -> [StatedRule] {
        var found: [StatedRule] = []
        func add(_ location: String, _ keyword: String) {
            let rule = StatedRule(contractID: contractID, location: location, keyword: keyword)
            if !found.contains(rule) { found.append(rule) }
        }
        let request = source["request"]
        if let body = request?["body"].map({ resolve($0, schemas) }), body["properties"] != nil {
            let required = Set(body["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            for (name, member) in body["properties"]?.objectValue ?? JSONObject() {
                let location = "/request/body/properties/\(name)"
                for keyword in propertyKeywords(resolve(member, schemas), required: required.contains(name)) { add(location, keyword) }
            }
            for keyword in rootKeywords(body) { add("/request/body", keyword) }
        }
        for limit in ["maxBodyBytes", "maxFileBytes"] where request?[limit]?.numberValue != nil { add("/request", limit) }
        for (name, parameter) in request?["query"]?.objectValue ?? JSONObject() {
            for keyword in queryKeywords(parameter) { add("/request/query/\(name)", keyword) }
        }
        if let auth = request?["auth"] {
            let checks = auth["x-errors"]?.objectValue?.keys ?? []
            if checks.isEmpty { add("/request/auth", "scheme") }
            for check in checks { add("/request/auth", check) }
        }
        for (name, part) in request?["parts"]?.objectValue ?? JSONObject() where part["required"]?.boolValue == true {
            add("/request/parts/\(name)", "required")
        }
        if let state = source["x-state"]?.objectValue {
            for (location, keyword) in stateRules(state, request: request) { add(location, keyword) }
        }
        return found
    }

    /// The rules an `x-state` declaration states (contracts/README.md, "State"): each `unique` field, the `notFound` and
    /// `credentials.mismatch` answers, a list's `where` and `filter`, a create's `secret`, and each `file.x-errors` rule.
    /// A file rule whose limit or requirement `request` states (`maxFileBytes`, a required part) is that request rule,
    /// which `file.x-errors` only answers, so it is listed once, where the limit is.
    static func stateRules(_ state: JSONObject, request: JSONValue?) -> [(location: String, keyword: String)] {
        var rules: [(location: String, keyword: String)] = []
        for (field, _) in state["unique"]?.objectValue ?? JSONObject() { rules.append(("/x-state/unique/\(field)", "unique")) }
        for key in ["notFound", "where", "filter", "secret"] where state[key] != nil { rules.append(("/x-state", key)) }
        if state["credentials"]?["mismatch"] != nil { rules.append(("/x-state/credentials", "mismatch")) }
        if let file = state["file"] {
            for (rule, _) in file["x-errors"]?.objectValue ?? JSONObject() {
                switch rule {
                case "maxFileBytes" where request?["maxFileBytes"]?.numberValue != nil:
                    rules.append(("/request", "maxFileBytes"))
                case "required":
                    rules.append((file["part"]?.stringValue.map { "/request/parts/\($0)" } ?? "/x-state/file", "required"))
                default:
                    rules.append(("/x-state/file", rule))
                }
            }
        }
        return rules
    }

    /// A property's rules: `required` when the parent requires it, each `x-errors` key in order, then every other
    /// constraining keyword it carries (a keyword without an `x-errors` entry still validates).
    static func propertyKeywords(_ schema: JSONValue, required: Bool) -> [String] {
        var keywords: [String] = required ? ["required"] : []
        for key in schema["x-errors"]?.objectValue?.keys ?? [] where !keywords.contains(key) { keywords.append(key) }
        for (key, value) in schema.objectValue ?? JSONObject() where !annotations.contains(key) && !keywords.contains(key) && key != "default" {
            if key == "x-stored", value.stringValue == "as-sent" { continue }
            if key == "x-trim" || key == "x-empty-as-null", value.boolValue != true { continue }
            keywords.append(key)
        }
        return keywords
    }

    /// The body object's own rules: its `x-errors` keys, a closed property set, the root `anyOf`/`oneOf`, its type.
    static func rootKeywords(_ schema: JSONValue) -> [String] {
        var keywords = schema["x-errors"]?.objectValue?.keys ?? []
        if schema["additionalProperties"]?.boolValue == false, !keywords.contains("additionalProperties") { keywords.append("additionalProperties") }
        for key in ["type", "anyOf", "oneOf", "not"] where schema[key] != nil && !keywords.contains(key) { keywords.append(key) }
        return keywords
    }

    /// A query parameter's rules, from the parameter object (`x-parse`, `x-requires`, `x-errors`) and its schema.
    static func queryKeywords(_ parameter: JSONValue) -> [String] {
        var keywords: [String] = []
        func add(_ key: String) { if !keywords.contains(key) { keywords.append(key) } }
        if parameter["required"]?.boolValue == true { add("required") }
        let schema = parameter["schema"] ?? JSONValue.object(JSONObject())
        for holder in [parameter, schema] {
            for key in holder["x-errors"]?.objectValue?.keys ?? [] { add(key) }
            for key in ["x-parse", "x-requires"] where holder[key] != nil { add(key) }
        }
        for (key, _) in schema.objectValue ?? JSONObject() where !annotations.contains(key) && !key.hasPrefix("x-") { add(key) }
        return keywords
    }

    /// `schema` with a top-level `$ref` to a shared schema replaced by that schema.
    static func resolve(_ schema: JSONValue, _ schemas: [String: JSONValue]) -> JSONValue {
        guard let reference = schema["$ref"]?.stringValue else { return schema }
        return schemas[ContractSet.sharedSchemaName(of: reference)] ?? schema
    }
}
