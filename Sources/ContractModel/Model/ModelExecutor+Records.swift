import ContractKit
import Foundation

extension ModelExecutor {
    /// `create`: the contract's body rules, then a record made from its declaration: every stored field in declared
    /// order (sent values by their storage plan, generated and initial ones), the secret kept apart, the unique fields
    /// checked; the answer is the record plus the secret last, or the declared `answer` fields (tokens included).
    ///
    /// `body` is what the JSON body parser left: nil when no JSON body was read (the real handler sees `undefined`).
    func create(_ endpoint: ModelEndpoint, _ declared: DeclaredEndpoint, body: JSONValue?) throws -> ModelAnswer {
        let state = try declared.requireState()
        let layout = try declared.requireLayout()
        guard let rules = endpoint.bodyRules else { throw UndeclaredState(contractID: declared.contractID, what: "a JSON object request body") }
        let now = configuration.now()
        if let refusal = rules.firstRefusal(in: body, context: RuleContext(today: Timestamp.day(of: now))) { throw refusal.thrown }
        // Rules without a body schema leave anything through; a record is made of an object only.
        guard let sent = body?.objectValue else { throw UndeclaredState(contractID: declared.contractID, what: "request body rules that refuse a non-object") }
        // What is stored follows the contract (`x-stored`, `x-empty-as-null`, `x-sanitize`): the real backend keeps the
        // request's own values, not the trimmed ones, sanitizes text and stores optional `""` as null.
        let stored = rules.stored(from: sent, sanitizer: ModelRules.transform)
        let stamp = JSONValue.string(Timestamp.string(from: now))
        let draws = state.generate.compactMap { $0.generator.isRandom ? $0.generator : nil }
        var made = JSONObject()
        let outcome = store.create(in: layout.index, draws: draws) { drawn in
            var generated: [JSONValue] = []
            generated.reserveCapacity(state.generate.count)
            var next = drawn.makeIterator()
            for (_, generator) in state.generate {
                switch generator {
                case .uuidV4, .digits6: generated.append(.string(next.next() ?? ""))
                case .nowISOMilliseconds: generated.append(stamp)
                case .jwtHS256: generated.append(.null)
                }
            }
            func value(_ field: String) -> JSONValue? {
                if let i = state.generate.firstIndex(where: { $0.field == field }) { return generated[i] }
                return stored[field]
            }
            let secret = layout.secretField.flatMap { value($0)?.stringValue } ?? ""
            guard layout.fields != nil else {
                // No stored schema: the record is the sent object plus the generated fields (tokens come later).
                var object = sent
                for (i, (field, generator)) in state.generate.enumerated() where generator != .jwtHS256 { object[field] = generated[i] }
                made = object
                let key = state.storedKey(layout.keyField.flatMap { object[$0]?.stringValue } ?? "")
                return (key, RecordStore.Record(json: [UInt8](JSONValue.object(object).serializedBytes()), secret: secret,
                                                       derived: layout.derived(object: object)))
            }
            var values: [JSONValue] = []
            values.reserveCapacity(layout.sources.count)
            for source in layout.sources {
                switch source {
                case .sent(let i): values.append(stored.values[i])
                case .generated(let i): values.append(generated[i])
                case .initial(let value): values.append(value)
                case .absent: values.append(.null)
                }
            }
            let keyValue = layout.keyField.flatMap { value($0)?.stringValue } ?? ""
            let key = layout.keyIsGenerated ? keyValue : state.storedKey(keyValue)
            return (key, RecordStore.Record(json: layout.render(values), secret: secret, derived: layout.derived(values)))
        }
        switch outcome {
        case .taken(let field):
            guard let clash = state.uniqueAnswer(for: field) else { throw UndeclaredState(contractID: declared.contractID, what: "x-state/unique") }
            throw ModelError(clash)
        case .stored(_, let secret, let json):
            let status = HTTPStatus(statusCode: endpoint.successStatus)
            guard let fields = state.answer else {
                guard let name = layout.secretField else { return ModelAnswer(status: status, headers: Self.jsonHeaders, body: json) }
                return ModelAnswer(status: status, headers: Self.jsonHeaders, body: Self.withSecret(name, secret, in: json))
            }
            if made.isEmpty, let object = (try? JSONValue(parsing: Array(json)))?.objectValue { made = object }
            return try answer(fields, record: made, state: state, contractID: declared.contractID, status: status)
        }
    }

    /// The declared `answer` fields of `record`, its `jwt-hs256` fields signed now (their claims are other fields of the
    /// record, generated ones included).
    func answer(_ fields: [String], record: JSONObject, state: StateDeclaration, contractID: String, status: HTTPStatus) throws -> ModelAnswer {
        var record = record
        for (field, generator) in state.generate where generator == .jwtHS256 {
            guard let token = state.token else { throw UndeclaredState(contractID: contractID, what: "x-state/token") }
            let claims = token.claims.map { ($0, record[$0] ?? .null) }
            record[field] = .string(JSONWebToken.hs256(claims: claims, now: configuration.now(),
                                                       token: configuration.contracts.deploymentSecrets.resolving(token)))
        }
        return Self.json(status, .object(JSONObject(fields.map { ($0, record[$0] ?? .null) })))
    }

    /// The stored JSON with the declared secret (`x-state/secret`) appended as the last key, as the real backend sends it.
    ///
    /// Spliced into the bytes the store already rendered: the object's closing brace is its last byte.
    static func withSecret(_ name: String, _ password: String, in json: [UInt8]) -> [UInt8] {
        guard json.count > 2 else { return json }
        var out = [UInt8]()
        out.reserveCapacity(json.count + 40)
        // A slice copies in one go; `Sequence.dropLast` would buffer the bytes one by one (2 % of a create).
        out += json[..<(json.count - 1)]
        out.append(UInt8(ascii: ","))
        out += JSONValue.string(name).serializedBytes()
        out.append(UInt8(ascii: ":"))
        out += JSONValue.string(password).serializedBytes()
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `list`: the collection's listed records (every `where` field set) in creation order, through the declared filter
    /// (e.g. within `range` km of `lat`/`lng`), wrapped as declared.
    func list(_ model: ModelEndpoint, _ endpoint: DeclaredEndpoint, request: ModelRequest) throws -> ModelAnswer {
        let layout = try endpoint.requireLayout()
        var values: [String: JSONValue] = [:]
        if let rules = model.queryRules {
            let sent = QueryRules.firstValues(in: request.query)
            switch rules.evaluate({ sent[$0] }, context: RuleContext(today: Timestamp.day(of: configuration.now()))) {
            case .success(let parsed): values = parsed
            case .failure(let refusal): throw refusal.thrown
            }
        }
        let query = ListQuery(values: values, rules: model.queryRules)
        // The declared wrapper (x-state/wrap) around the array; without one the array is the answer.
        let wrap = endpoint.state?.list?.wrap
        var body = [UInt8]()
        if let wrap {
            body += Array("{".utf8)
            body += (JSONValue.string(wrap).serializedBytes())
            body += Array(":".utf8)
        }
        body += Array("[".utf8)
        var first = true
        for record in store.listedRecords(in: layout.index)
        where query.includes(latitude: record.derived.filterInputs.0, longitude: record.derived.filterInputs.1) {
            if !first { body += Array(",".utf8) }
            first = false
            body += record.json
        }
        body += Array((wrap == nil ? "]" : "]}").utf8)
        return ModelAnswer(status: .ok, headers: Self.jsonHeaders, body: body)
    }

    /// `delete`: the declared token checks (`request.auth.x-errors`, the token from where `x-token` says),
    /// then the record named by `key` (`notFound`); 204 without a body.
    func delete(_ model: ModelEndpoint, _ endpoint: DeclaredEndpoint, parameters: [String: String], request: ModelRequest) throws -> ModelAnswer {
        let state = try endpoint.requireState()
        let layout = try endpoint.requireLayout()
        let auth = try endpoint.requireAuth()
        try auth.checkToken(in: request.headers, expected: expectedToken(auth), parameters: parameters)
        guard store.delete(in: layout.index, id: state.key.flatMap { parameters[$0] } ?? "") else {
            guard let notFound = state.notFound else { throw UndeclaredState(contractID: endpoint.contractID, what: "notFound") }
            throw ModelError(notFound, parameters: parameters)
        }
        return ModelAnswer(status: .noContent)
    }

    /// The value a token scheme expects, from where its `x-token` says; nil: nothing can match.
    func expectedToken(_ auth: AuthDeclaration) -> String? {
        switch auth.token {
        case .adminTokenOption?: return configuration.adminToken
        case nil: return nil
        }
    }
}

extension StateGenerator {
    /// Whether the store draws it from its (seeded) random sequence.
    var isRandom: Bool {
        switch self {
        case .uuidV4, .digits6: return true
        case .nowISOMilliseconds, .jwtHS256: return false
        }
    }
}
