import Foundation

/// Compiles a contract's rule keywords (`x-errors`, `x-trim`, `x-check`, `x-stored`, `x-parse`, …) into `RequestRules`,
/// collecting a problem (document + JSON pointer) for each keyword it cannot use.
struct RuleCompiler {
    /// Every `x-…` keyword a request body or query parameter schema may carry.
    static let bodyRootKeywords: Set<String> = ["x-errors", "x-issue-order"]
    static let propertyKeywords: Set<String> = ["x-errors", "x-trim", "x-check", "x-stored", "x-sanitize", "x-empty-as-null", "x-stored-key"]
    static let queryKeywords: Set<String> = ["x-errors", "x-parse", "x-requires", "x-filter-input"]
    /// The inputs of the list's great-circle filter a query parameter may feed (`x-filter-input`).
    static let filterInputs = ["latitude", "longitude", "range"]
    /// Keywords that only annotate: never a rule.
    static let annotations: Set<String> = [
        "$schema", "$id", "$comment", "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly",
        "$defs", "definitions",
    ]
    static let answerKeys = ["status", "code", "message", "field"]

    let validator: SchemaValidator
    var problems: [RuleProblem] = []
    /// Properties and parameters with rules but no `x-errors` at all: not problems (the model still answers, naming
    /// the rule), but `lint` warns, since a client cannot read their answers from the contract.
    var unstated: [RuleProblem] = []

    init(validator: SchemaValidator) {
        self.validator = validator
    }

    /// `contract`'s rules; `documentKey` is its file relative to the contracts folder.
    mutating func compile(_ contract: Contract, documentKey: String) -> RequestRules {
        let fallback = Self.fallbackAnswer(contract)
        var stated = false
        var body: BodyRules?
        if let schema = contract.request.body {
            body = compileBody(schema, contract: contract, documentKey: documentKey, fallback: fallback, stated: &stated)
        }
        var query: QueryRules?
        if !contract.request.query.isEmpty {
            query = compileQuery(contract, documentKey: documentKey, fallback: fallback, stated: &stated)
        }
        return RequestRules(body: body, query: query, isStated: stated)
    }

    /// The contract's first documented 400: its code and its first example's message (the answer a rule gets when the
    /// contract states none).
    static func fallbackAnswer(_ contract: Contract) -> RuleAnswer {
        guard let response = contract.responses.first(where: { $0.status == 400 }) else {
            return RuleAnswer(code: "BAD_REQUEST", message: "Bad Request", field: "{field}")
        }
        let message = response.examples.lazy.compactMap { $0.body?["error"]?["message"]?.stringValue }.first ?? response.when
        return RuleAnswer(code: response.code ?? "BAD_REQUEST", message: message, field: "{field}")
    }

    // MARK: - Body

    private mutating func compileBody(_ schema: JSONValue, contract: Contract, documentKey: String, fallback: RuleAnswer,
                                      stated: inout Bool) -> BodyRules? {
        // The body is usually a `$ref` to a shared schema: the rules live (and are reported) there.
        var (root, key, pointer) = (schema, documentKey, "/request/body")
        var scope = SchemaValidator.Scope(key: documentKey, root: schema)
        var hops = 0
        while let ref = root["$ref"]?.stringValue, hops < SchemaValidator.maximumReferenceDepth,
            let (target, targetScope) = validator.resolve(ref, in: scope)
        {
            root = target
            scope = targetScope
            key = targetScope.key
            pointer = SchemaReference.split(ref).fragment
            hops += 1
        }
        guard case .object(let s) = root, s["type"]?.stringValue == "object" || s["properties"] != nil else { return nil }
        let location = "\(contract.id) /request/body"
        for (name, _) in s where name.hasPrefix("x-") && !Self.bodyRootKeywords.contains(name) {
            problem(key, JSONPointer.appending(pointer, name),
                    "unknown rule keyword \"\(name)\" on a request body; known: \(Self.bodyRootKeywords.sorted().joined(separator: ", "))")
        }
        let requiredNames = Set(s["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let rootErrors = answers(s["x-errors"], key, JSONPointer.appending(pointer, "x-errors"))
        if !rootErrors.isEmpty { stated = true }
        var rootAnswers: [String: RuleAnswer] = [:]
        for (keyword, answer, at) in rootErrors {
            let present: Bool
            switch keyword {
            case "undefined": present = true
            case "type", "additionalProperties", "anyOf", "oneOf", "allOf", "not", "required": present = s[keyword] != nil
            default: present = false
            }
            if !present {
                problem(key, at, "x-errors names \"\(keyword)\", which this body schema does not have"
                    + " (root keys: undefined, and type, required, additionalProperties, anyOf, oneOf, allOf, not when present)")
            }
            rootAnswers[keyword] = answer
        }
        var properties: [PropertyRule] = []
        if let members = s["properties"]?.objectValue {
            for (name, propertySchema) in members {
                let at = JSONPointer.appending(JSONPointer.appending(pointer, "properties"), name)
                properties.append(compileProperty(name, propertySchema, required: requiredNames.contains(name), requiredAnswer: rootAnswers["required"],
                                                  key: key, pointer: at, location: "\(location)/properties/\(name)", stated: &stated))
            }
        }
        var order = BodyRules.Phase.allCases.filter { $0 != .properties && $0 != .additionalProperties && s[$0.rawValue] != nil }
        order = [.properties, .additionalProperties] + order
        if let listed = s["x-issue-order"] {
            let at = JSONPointer.appending(pointer, "x-issue-order")
            let names = listed.arrayValue?.compactMap(\.stringValue)
            let phases = names?.compactMap(BodyRules.Phase.init(rawValue:)) ?? []
            if names == nil || names?.count != listed.arrayValue?.count || phases.count != names?.count || Set(phases).count != phases.count {
                problem(key, at, "x-issue-order must list object phases once each, from: \(BodyRules.Phase.allCases.map(\.rawValue).joined(separator: ", "))")
            } else {
                // Phases the list leaves out are checked after it, in the default order.
                order = phases + order.filter { !phases.contains($0) }
            }
        }
        var compositions: [BodyRules.Phase: CompiledSchema] = [:]
        for phase in [BodyRules.Phase.anyOf, .oneOf, .allOf, .not] {
            if let value = s[phase.rawValue] { compositions[phase] = CompiledSchema(.object(JSONObject([(phase.rawValue, value)])), validator: validator) }
        }
        let additionalValue = s["additionalProperties"]
        let additional: CompiledSchema? = switch additionalValue {
        case nil, .bool?: nil
        case let value?: CompiledSchema(value, validator: validator)
        }
        return BodyRules(properties: properties, known: Set(properties.map(\.name)), names: properties.map(\.name), rootAnswers: rootAnswers, additional: additional,
                         forbidsAdditional: additionalValue == .bool(false), compositions: compositions, order: order,
                         fallback: fallback, location: location)
    }

    mutating func compileProperty(_ name: String, _ schema: JSONValue, required: Bool, requiredAnswer rootRequired: RuleAnswer?,
                                          key: String, pointer: String, location: String, stated: inout Bool) -> PropertyRule {
        guard case .object(let s) = schema else {
            return PropertyRule(name: name, required: required, requiredAnswer: rootRequired, trim: false, checks: [], storage: StoragePlan(),
                                location: location)
        }
        for (keyword, _) in s where keyword.hasPrefix("x-") && !Self.propertyKeywords.contains(keyword) {
            problem(key, JSONPointer.appending(pointer, keyword),
                    "unknown rule keyword \"\(keyword)\" on a property; known: \(Self.propertyKeywords.sorted().joined(separator: ", "))")
        }
        let trim = flag(s, "x-trim", key, pointer)
        var storage = StoragePlan()
        storage.emptyAsNull = flag(s, "x-empty-as-null", key, pointer)
        if let value = s["x-stored"] {
            if let form = value.stringValue.flatMap(StoragePlan.Form.init(rawValue:)) {
                storage.form = form
            } else {
                problem(key, JSONPointer.appending(pointer, "x-stored"), "x-stored must be \"as-sent\" or \"trimmed\", found \(value.serialized())")
            }
        }
        storage.sanitize = transform(s, "x-sanitize", allowed: [.xss], key, pointer)
        storage.key = transform(s, "x-stored-key", allowed: [.lowercase], key, pointer)
        var named: NamedCheck?
        if let value = s["x-check"] {
            named = value.stringValue.flatMap(NamedCheck.init(rawValue:))
            if named == nil {
                problem(key, JSONPointer.appending(pointer, "x-check"),
                        "x-check must name a known check (\(NamedCheck.allCases.map(\.rawValue).joined(separator: ", "))), found \(value.serialized())")
            }
        }
        let errors = answers(s["x-errors"], key, JSONPointer.appending(pointer, "x-errors"))
        if !errors.isEmpty { stated = true }
        warnUnstated(s, named: name, required: required && rootRequired == nil, key: key, pointer: pointer)
        var requiredAnswer = rootRequired
        var ordered: [(String, RuleAnswer?)] = []
        for (keyword, answer, at) in errors {
            switch keyword {
            case "required":
                if !required { problem(key, at, "x-errors names \"required\" but the object's required list does not name \(name)") }
                requiredAnswer = answer
            case "x-check":
                if named == nil, s["x-check"] == nil { problem(key, at, "x-errors names \"x-check\" but the property has no x-check") }
                ordered.append((keyword, answer))
            default:
                if s[keyword] == nil || keyword.hasPrefix("x-") || Self.annotations.contains(keyword) {
                    problem(key, at, "x-errors names \"\(keyword)\", which the property \(name) does not have as a rule keyword")
                } else {
                    ordered.append((keyword, answer))
                }
            }
        }
        // Keywords without an answer still validate, after the stated ones, in file order.
        for (keyword, _) in s where !keyword.hasPrefix("x-") && !Self.annotations.contains(keyword) && !ordered.contains(where: { $0.0 == keyword }) {
            ordered.append((keyword, nil))
        }
        if named != nil, !ordered.contains(where: { $0.0 == "x-check" }) { ordered.append(("x-check", nil)) }
        let checks = ordered.compactMap { keyword, answer in
            check(keyword, s, named: named, answer: answer)
        }
        return PropertyRule(name: name, required: required, requiredAnswer: requiredAnswer, trim: trim, checks: checks, storage: storage,
                            location: location)
    }

    // MARK: - Query

    private mutating func compileQuery(_ contract: Contract, documentKey: String, fallback: RuleAnswer, stated: inout Bool) -> QueryRules {
        let names = Set(contract.request.query.map(\.name))
        var parameters: [QueryRules.Parameter] = []
        for spec in contract.request.query {
            let pointer = JSONPointer.appending(JSONPointer.appending("/request/query", spec.name), "schema")
            let location = "\(contract.id) /request/query/\(spec.name)"
            guard case .object(let s) = spec.schema else { continue }
            for (keyword, _) in s where keyword.hasPrefix("x-") && !Self.queryKeywords.contains(keyword) {
                problem(documentKey, JSONPointer.appending(pointer, keyword),
                        "unknown rule keyword \"\(keyword)\" on a query parameter; known: \(Self.queryKeywords.sorted().joined(separator: ", "))")
            }
            var parse: QueryParse?
            if let value = s["x-parse"] {
                parse = value.stringValue.flatMap(QueryParse.init(rawValue:))
                if parse == nil {
                    problem(documentKey, JSONPointer.appending(pointer, "x-parse"), "x-parse must be \"javascript-parseFloat\", found \(value.serialized())")
                }
            }
            if parse != nil, let value = s["default"], value.numberValue == nil {
                problem(documentKey, JSONPointer.appending(pointer, "default"), "a parsed parameter's default must be a number, found \(value.serialized())")
            }
            var requires: String?
            if let value = s["x-requires"] {
                requires = value.stringValue
                if requires == nil || !names.contains(requires!) || requires == spec.name {
                    problem(documentKey, JSONPointer.appending(pointer, "x-requires"),
                            "x-requires must name another query parameter of this request, found \(value.serialized())")
                    requires = nil
                }
            }
            var filterInput: String?
            if let value = s["x-filter-input"] {
                filterInput = value.stringValue
                if filterInput.map({ !Self.filterInputs.contains($0) }) ?? true {
                    problem(documentKey, JSONPointer.appending(pointer, "x-filter-input"),
                            "x-filter-input must be one of \(Self.filterInputs.joined(separator: ", ")), found \(value.serialized())")
                    filterInput = nil
                }
            }
            let errors = answers(s["x-errors"], documentKey, JSONPointer.appending(pointer, "x-errors"))
            if !errors.isEmpty { stated = true }
            warnUnstated(s, named: spec.name, required: false, key: documentKey, pointer: pointer)
            var ordered: [(String, RuleAnswer?)] = []
            var requiresAnswer: RuleAnswer?
            for (keyword, answer, at) in errors {
                switch keyword {
                case "x-parse":
                    if s["x-parse"] == nil { problem(documentKey, at, "x-errors names \"x-parse\" but the parameter has no x-parse") }
                    ordered.append((keyword, answer))
                case "x-requires":
                    if s["x-requires"] == nil { problem(documentKey, at, "x-errors names \"x-requires\" but the parameter has no x-requires") }
                    requiresAnswer = answer
                default:
                    if s[keyword] == nil || keyword.hasPrefix("x-") || Self.annotations.contains(keyword) {
                        problem(documentKey, at, "x-errors names \"\(keyword)\", which the parameter \(spec.name) does not have as a rule keyword")
                    } else {
                        ordered.append((keyword, answer))
                    }
                }
            }
            for (keyword, _) in s where !keyword.hasPrefix("x-") && !Self.annotations.contains(keyword) && !ordered.contains(where: { $0.0 == keyword }) {
                // The parse decides a parsed parameter's type; `type` describes the text for the schema check.
                if parse != nil, keyword == "type" { continue }
                ordered.append((keyword, nil))
            }
            // The parse runs before the value checks, whatever the x-errors order.
            let parseAnswer = ordered.first { $0.0 == "x-parse" }.flatMap { $0.1 }
            let checks = ordered.filter { $0.0 != "x-parse" }.compactMap { keyword, answer in check(keyword, s, named: nil, answer: answer) }
            parameters.append(QueryRules.Parameter(name: spec.name, parse: parse, parseAnswer: parseAnswer, defaultValue: s["default"],
                                                   filterInput: filterInput, checks: checks,
                                                   requires: requires.map { ($0, requiresAnswer) }, location: location))
        }
        return QueryRules(parameters: parameters, fallback: fallback)
    }

    // MARK: - Pieces

    /// One keyword compiled into a check; nil for a keyword that checks nothing here (or was already reported).
    private func check(_ keyword: String, _ s: JSONObject, named: NamedCheck?, answer: RuleAnswer?) -> ValueCheck? {
        let value = s[keyword]
        let test: ValueCheck.Test
        switch keyword {
        case "x-check":
            guard let named else { return nil }
            test = .named(named)
        case "type":
            guard let value else { return nil }
            test = .type(JSONTypeSet(typeKeyword: value))
        case "minLength", "maxLength":
            guard let n = value?.intValue else { return nil }
            test = keyword == "minLength" ? .minLength(n) : .maxLength(n)
        case "pattern":
            guard let source = value?.stringValue, case .success(let pattern) = RegexCache.shared.compile(source) else { return nil }
            test = .pattern(pattern, shortcut: PatternShortcut.rules[source] != nil)
        case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
            guard let n = value?.numberValue else { return nil }
            test = switch keyword {
            case "minimum": .minimum(n)
            case "maximum": .maximum(n)
            case "exclusiveMinimum": .exclusiveMinimum(n)
            case "exclusiveMaximum": .exclusiveMaximum(n)
            default: .multipleOf(n)
            }
        default:
            guard let value else { return nil }
            test = .schema(CompiledSchema(.object(JSONObject([(keyword, value)])), validator: validator))
        }
        return ValueCheck(keyword: keyword, test: test, answer: answer)
    }

    /// The entries of an `x-errors` object in order, each a keyword, its answer and where it is.
    private mutating func answers(_ value: JSONValue?, _ key: String, _ pointer: String) -> [(String, RuleAnswer, String)] {
        guard let value else { return [] }
        guard case .object(let members) = value else {
            problem(key, pointer, "x-errors must be an object of rule keyword → answer, found \(SchemaValidator.describe(value))")
            return []
        }
        return members.compactMap { keyword, answer in
            let at = JSONPointer.appending(pointer, keyword)
            return self.answer(answer, key, at).map { (keyword, $0, at) }
        }
    }

    /// An answer object `{status?, code, message, field?}`, or nil (with a problem) when it is not one.
    private mutating func answer(_ value: JSONValue, _ key: String, _ pointer: String) -> RuleAnswer? {
        guard case .object(let o) = value else {
            problem(key, pointer, "an answer must be an object {status, code, message, field}, found \(SchemaValidator.describe(value))")
            return nil
        }
        var valid = true
        for (name, _) in o where !Self.answerKeys.contains(name) {
            problem(key, JSONPointer.appending(pointer, name), "unknown key \"\(name)\" in an answer; known: \(Self.answerKeys.joined(separator: ", "))")
            valid = false
        }
        var status = 400
        if let s = o["status"] {
            if let n = s.intValue, (400...599).contains(n) {
                status = n
            } else {
                problem(key, JSONPointer.appending(pointer, "status"), "status must be an error status 400...599, found \(s.serialized())")
                valid = false
            }
        }
        func text(_ name: String, required: Bool) -> String? {
            guard let v = o[name] else {
                if required {
                    problem(key, pointer, "an answer needs \(name) (a string)")
                    valid = false
                }
                return nil
            }
            guard let s = v.stringValue, !s.isEmpty else {
                problem(key, JSONPointer.appending(pointer, name), "\(name) must be a non-empty string, found \(v.serialized())")
                valid = false
                return nil
            }
            let unknown = RuleAnswer.unknownPlaceholders(in: s, allowed: RuleAnswer.placeholders)
            if !unknown.isEmpty {
                problem(key, JSONPointer.appending(pointer, name),
                        "unknown placeholder\(unknown.count == 1 ? "" : "s") \(unknown.map { "{\($0)}" }.joined(separator: ", ")); known: {field}, {received}, {key}")
                valid = false
            }
            return s
        }
        let code = text("code", required: true)
        let message = text("message", required: true)
        let field = text("field", required: false)
        guard valid, let code, let message else { return nil }
        return RuleAnswer(status: status, code: code, message: message, field: field)
    }

    private mutating func flag(_ s: JSONObject, _ keyword: String, _ key: String, _ pointer: String) -> Bool {
        guard let value = s[keyword] else { return false }
        guard case .bool(let b) = value else {
            problem(key, JSONPointer.appending(pointer, keyword), "\(keyword) must be true or false, found \(value.serialized())")
            return false
        }
        return b
    }

    private mutating func transform(_ s: JSONObject, _ keyword: String, allowed: [NamedTransform], _ key: String, _ pointer: String) -> NamedTransform? {
        guard let value = s[keyword] else { return nil }
        guard let named = value.stringValue.flatMap(NamedTransform.init(rawValue:)), allowed.contains(named) else {
            problem(key, JSONPointer.appending(pointer, keyword),
                    "\(keyword) must be \(allowed.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")), found \(value.serialized())")
            return nil
        }
        return named
    }

    /// Notes a property or parameter that has rule keywords (or is required) but states no `x-errors` at all.
    private mutating func warnUnstated(_ s: JSONObject, named name: String, required: Bool, key: String, pointer: String) {
        guard s["x-errors"] == nil else { return }
        let keywords = s.keys.filter { !$0.hasPrefix("x-") && !Self.annotations.contains($0) } + (required ? ["required"] : [])
        guard !keywords.isEmpty else { return }
        unstated.append(RuleProblem(documentKey: key, pointer: pointer, message:
            "\(name) has rules (\(keywords.joined(separator: ", "))) but no x-errors: the model answers a broken one with the contract's "
                + "first 400 code and a message naming the rule, and verify only notes a server that answers otherwise; state the answers"))
    }

    private mutating func problem(_ key: String, _ pointer: String, _ message: String) {
        problems.append(RuleProblem(documentKey: key, pointer: pointer, message: message))
    }
}
