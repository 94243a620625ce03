import ContractKit
import ContractModel
import Foundation
import MockBackend
import ScenarioEngine

/// `verify`'s exploration of contracts without any `x-state` (a team's own OpenAPI document): no model can keep in step
/// with a server whose state the contracts do not describe, so each generated request is judged by what the contracts
/// state alone:
/// - a request the contracts' schemas refuse (a required key left out, a value outside its enum, pattern, length or
///   range) must not be accepted;
/// - a request they allow must not be refused as malformed (400 or 422): the server is stricter than the document;
/// - every answer's status must be one the operation documents, and a 5xx is a server error;
/// - an answer with a documented status must match that status's body schema.
///
/// Requests are the operation's own example request with one body property or query parameter changed at a time (the
/// values `FieldVariants` makes from its schema). Findings of one kind are grouped, so a refusal every request meets
/// (a key the document requires and the server forbids) is one finding with a count, not one per request.
public struct DocumentExplorer: Sendable {
    /// One finding: a group of generated requests answered the same wrong way.
    public struct Finding: Sendable, Equatable {
        /// The contract (operation) it is about.
        public let contractID: String
        /// `accepts email ""`, `refuses range 1.5`, `answers 500`, `answers 401 undocumented`, `400 body /error`.
        public let title: String
        /// What the contracts state, and what the server did instead.
        public let expected: String
        public let actual: String
        /// The first request of the group, for a person to replay.
        public let request: String
        /// How many generated requests met it.
        public var count: Int
        /// A failure, or a note (a corner the contracts leave open).
        public let isNote: Bool
        /// The drift it shows as `DriftKey` names it (a body rule broken), so an example that shows the same is one finding.
        public var drift: String?
    }

    /// Server defects: the defect probes of one operation that got the same 5xx (or no answer at all).
    public struct DefectFinding: Sendable, Equatable {
        /// The contract (operation) it is about.
        public let contractID: String
        /// The status answered, or nil when no HTTP answer came.
        public let status: Int?
        /// Each probe answered so, by its label.
        public var probes: [String]
        /// The first probe's request, for a person to replay.
        public let request: String
        /// The first answer (its status and the start of its body), or why none came.
        public let answer: String
    }

    /// What an exploration did.
    public struct Outcome: Sendable {
        public let sent: Int
        public let findings: [Finding]
        /// Operations left out, and why (a path parameter no operation gives, a multipart body).
        public let skipped: [String]
        /// Defect probes answered with a server error, grouped by operation and status.
        public var defects: [DefectFinding] = []
        /// How many defect probes were sent.
        public var probesSent = 0
        /// Where the values of the operations that need one came from (`{id}` from a list, a create made for them).
        public var reachedBy: [String] = []
    }

    let contracts: ContractSet
    let target: URL
    let cases: Int
    let timeout: Duration
    /// A `format` an answer breaks is a note, not a failure (`verify --formats lenient`).
    public var lenientFormats = false
    /// What the server's own answers gave the operations that need a path value or credentials (filled by `explore`).
    var reached = Reach()

    /// Path values and Basic credentials taken from the server's answers, for the operations that need them.
    struct Reach: Sendable {
        /// Contract id → path parameter → value.
        var path: [String: [String: String]] = [:]
        /// The Basic credentials of the record a create of the set made (its id and its secret), for operations that ask.
        var authorization: String?
        /// Where each value came from, for the console.
        var notes: [String] = []
        /// Operations left out, and why.
        var unreachable: [String] = []
    }

    /// An explorer of `target` sending at most `cases` requests.
    public init(contracts: ContractSet, target: URL, cases: Int, timeout: Duration) {
        self.contracts = contracts
        self.target = target
        self.cases = cases
        self.timeout = timeout
    }

    /// Whether `contracts` are explored this way: no contract declares any state.
    public static func applies(to contracts: ContractSet) -> Bool {
        !contracts.contracts.contains { $0.source["x-state"] != nil }
    }

    /// One generated request and whether the contracts allow it (nil: allowed), with what it changes.
    struct Case {
        let contract: Contract
        let query: [(String, String)]
        let body: JSONValue?
        let label: String
        /// The stated rule the request breaks (`/email format`, `lat maximum`); nil when the contracts allow it.
        let broken: String?
        /// Whether the request it varies is one the contracts allow: only then is a refusal of a variant that breaks
        /// nothing new a finding.
        var baseAllowed = true
        /// The value breaks its rule only by the whitespace around it: a server that trims it takes what a client means.
        var paddingOnly = false
        /// The keyword of `broken`.
        var keyword: String? { broken?.split(separator: " ").last.map(String.init) }
    }

    /// Sends the generated requests round-robin over the operations (so a small budget still reaches each) and groups
    /// what comes back wrong.
    public func explore() async -> Outcome {
        let client = ExactHTTPClient(timeout: timeout)
        var explorer = self
        explorer.reached = await reach(client: client)
        return await explorer.run(client: client)
    }

    /// Values for every path parameter and Basic credential the set's operations need, from the server itself: the set's
    /// lists first (they change nothing), then, when one is still missing, one create of the set (its first request
    /// example, its unique fields this run's own), whose answer gives its id and secret.
    func reach(client: ExactHTTPClient) async -> Reach {
        var reach = Reach()
        var values = ServerValues()
        var created: [String: String]?
        let unique = UniqueStandIns(contracts: contracts)
        func create() async -> [String: String]? {
            guard let record = await values.createRecord(contracts: contracts, target: target, client: client, unique: unique) else { return [:] }
            reach.notes.append("created one record with \(record.contractID) (id \(record.id)) for the operations that need one")
            return ["id": record.id, "secret": record.secret].compactMapValues { $0 }
        }
        for contract in contracts.contracts {
            let basic = contract.request.auth?.scheme == "basic"
            if basic, created == nil { created = await create() }
            var filled: [String: String] = [:]
            for name in contract.path.parameterNames {
                // An operation that opens a record with the create's credentials works on that record.
                if basic, ServerValues.isIdentifier(name), let id = created?["id"] {
                    filled[name] = id
                    continue
                }
                var found = await values.discover(name, of: contract, contracts: contracts, target: target, client: client)
                if found == nil, created == nil {
                    created = await create()
                    found = values.value(for: name, of: contract)
                }
                if let found {
                    filled[name] = found.value
                    reach.notes.append("\(contract.id): {\(name)} = \(found.value), from \(found.source)")
                }
            }
            let missing = contract.path.parameterNames.filter { filled[$0] == nil }
            if !missing.isEmpty {
                reach.unreachable.append("\(contract.id): its path needs \(missing.map { "{\($0)}" }.joined(separator: ", ")), which no answer "
                    + "of the set gives (no list carries it, no create answers it)")
            }
            if !filled.isEmpty { reach.path[contract.id] = filled }
        }
        if let id = created?["id"], let secret = created?["secret"] {
            reach.authorization = "Basic " + Data("\(id):\(secret)".utf8).base64EncodedString()
        }
        return reach
    }

    /// Whether every path parameter of `contract` has a value.
    func reachable(_ contract: Contract) -> Bool {
        contract.path.parameterNames.allSatisfy { reached.path[contract.id]?[$0] != nil }
    }

    /// The headers every request to `contract` carries: the create's Basic credentials where the operation asks for them.
    func credentials(_ contract: Contract) -> [String: String] {
        guard contract.request.auth?.scheme == "basic", let authorization = reached.authorization else { return [:] }
        return [contract.request.auth?.header ?? "Authorization": authorization]
    }

    func run(client: ExactHTTPClient) async -> Outcome {
        var skipped: [String] = reached.unreachable
        var queues: [[Case]] = []
        var operations: [Contract] = []
        for contract in contracts.contracts where reachable(contract) {
            if contract.request.contentType?.hasPrefix("multipart/") == true {
                skipped.append("\(contract.id): a multipart body is not generated for a document (its defect probes are sent)")
                continue
            }
            operations.append(contract)
        }
        let (defects, probesSent, probeFindings) = await probe(contracts.contracts.filter(reachable), client: client)
        var findings: [String: Finding] = [:]
        var order: [String] = []
        func record(_ found: [Finding]) {
            for finding in found {
                let key = finding.contractID + "\u{1}" + finding.title
                if findings[key] == nil {
                    findings[key] = finding
                    order.append(key)
                } else {
                    findings[key]?.count += 1
                }
            }
        }
        record(probeFindings)
        var sent = 0
        // Operations whose own example request was refused: every variant starts from it, so its refusals repeat that one.
        var refusedBase: Set<String> = []
        for contract in operations {
            // The example request, each key the server refuses by name taken out (at most five): one key the document
            // requires and the server forbids would otherwise hide every other rule behind that one refusal.
            var removed: [String] = []
            while sent < cases, let base = self.cases(for: contract, removing: removed).first {
                sent += 1
                guard let answer = await send(base, client: client) else { break }
                record(judge(base, answer))
                let refused = [400, 422].contains(answer.status)
                if refused, removed.count < 5, let field = (try? JSONValue(parsing: answer.body))?["error"]?["field"]?.stringValue,
                    base.body?[field] != nil
                {
                    removed.append(field)
                    continue
                }
                if refused { refusedBase.insert(contract.id) }
                break
            }
            let generated = Array(self.cases(for: contract, removing: removed).dropFirst())
            if !generated.isEmpty { queues.append(generated) }
        }
        var round = 0
        while sent < cases, queues.contains(where: { round < $0.count }) {
            for queue in queues where round < queue.count && sent < cases {
                let item = queue[round]
                sent += 1
                guard let answer = await send(item, client: client) else { continue }
                record(judge(item, answer, baseRefused: refusedBase.contains(item.contract.id)))
            }
            round += 1
        }
        var outcome = Outcome(sent: sent, findings: order.compactMap { findings[$0] }, skipped: skipped)
        outcome.defects = defects
        outcome.probesSent = probesSent
        outcome.reachedBy = reached.notes
        return outcome
    }

    /// Sends every defect probe of `operations` (their own budget: a few per operation, whatever `cases` says) and groups
    /// the server errors by operation and status.
    func probe(_ operations: [Contract], client: ExactHTTPClient) async -> (defects: [DefectFinding], sent: Int, findings: [Finding]) {
        var defects: [DefectFinding] = []
        var findings: [Finding] = []
        var sent = 0
        for contract in operations {
            let success = contract.responses.first { (200..<300).contains($0.status) }
            let example = success?.examples.lazy.compactMap(\.request).first?.body ?? contract.request.examples.first?.body
            let rootType = bodySchema(contract)["type"]?.stringValue
            let query = (success?.examples.lazy.compactMap(\.request).first?.query ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            for probe in DefectProbes.probes(for: contract, exampleBody: example, rootType: contract.request.body == nil ? nil : rootType) {
                guard let url = url(contract, query: query) else { break }
                sent += 1
                let status: Int?
                let answer: String
                do {
                    let headers = probe.headers.merging(credentials(contract)) { own, _ in own }
                    let received = try await client.send(method: contract.method, url: url, headers: headers, body: probe.body)
                    guard received.status >= 500 else { continue }
                    // A server error the document states still has the body it states: its drift is judged too.
                    findings += bodyFindings(contract, status: received.status, body: received.body,
                                             request: "\(contract.method) \(url.path) (\(probe.label))")
                    status = received.status
                    answer = "\(received.status) \(String(decoding: received.body.prefix(200), as: UTF8.self))"
                } catch {
                    status = nil
                    answer = "no HTTP answer: \(error)"
                }
                if let i = defects.firstIndex(where: { $0.contractID == contract.id && $0.status == status }) {
                    defects[i].probes.append(probe.label)
                } else {
                    let type = probe.headers["Content-Type"].map { "Content-Type: \($0)" } ?? "no Content-Type"
                    let body = String(decoding: probe.body.prefix(120), as: UTF8.self)
                    defects.append(DefectFinding(contractID: contract.id, status: status, probes: [probe.label],
                                                 request: "\(contract.method) \(url.path) (\(type)) \(body.isEmpty ? "(empty body)" : body)",
                                                 answer: answer))
                }
            }
        }
        return (defects, sent, findings)
    }

    /// The target's URL of `contract`'s path (its parameters as `reached` gives them) with `query`.
    func url(_ contract: Contract, query: [(String, String)]) -> URL? {
        guard var components = URLComponents(url: target, resolvingAgainstBaseURL: false) else { return nil }
        let base = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        var path = contract.pathTemplate
        for (name, value) in reached.path[contract.id] ?? [:] {
            path = path.replacingOccurrences(of: "{\(name)}", with: value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? value)
        }
        components.percentEncodedPath = base + path
        if !query.isEmpty { components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
        return components.url
    }

    /// The operation's own request (without the body keys `removing` names), then each body property and query
    /// parameter changed alone, and the body with a key no schema names.
    func cases(for contract: Contract, removing: [String] = []) -> [Case] {
        let success = contract.responses.first { (200..<300).contains($0.status) }
        let exampleRequest = success?.examples.lazy.compactMap(\.request).first
        let baseQuery = (exampleRequest?.query ?? [:]).sorted { $0.key < $1.key }
        var baseBody: JSONObject? = contract.request.body == nil ? nil
            : exampleRequest?.body?.objectValue ?? contract.request.examples.first?.body?.objectValue
        if contract.request.body != nil && baseBody == nil { return [] }
        for key in removing { baseBody?[key] = nil }
        // A variant is judged by the rules it breaks beyond its base's: a base with a key taken out may break `required`
        // already, and every variant would repeat that.
        let baseBroken = baseBody.map { Set(contracts.validator.validate(.object($0), against: bodySchema(contract)).map(Self.rule)) } ?? []
        func broken(_ body: JSONObject) -> String? {
            contracts.validator.validate(.object(body), against: bodySchema(contract)).map(Self.rule).first { !baseBroken.contains($0) }
        }
        func allowedBase(_ item: Case) -> Case {
            var item = item
            item.baseAllowed = baseBroken.isEmpty
            return item
        }
        var found: [Case] = [Case(contract: contract, query: baseQuery.map { ($0.key, $0.value) }, body: baseBody.map { .object($0) },
                                  label: removing.isEmpty ? "the example request" : "the example request without \(removing.joined(separator: ", "))",
                                  broken: baseBroken.sorted().first)]
        for parameter in contract.request.query {
            let schema = resolved(parameter.schema)
            let valid = baseQuery.first { $0.key == parameter.name }.map { JSONValue.string($0.value) }
            for variant in FieldVariants.variants(name: parameter.name, schema: schema, valid: valid, required: parameter.required,
                                                          validator: contracts.validator) {
                // An empty value is how many clients leave a parameter out, and servers read it so: not a value to judge.
                guard let text = Self.queryText(variant.value) ?? (variant.value == nil ? "" : nil), variant.value == nil || !text.isEmpty else { continue }
                var query = baseQuery.filter { $0.key != parameter.name }.map { ($0.key, $0.value) }
                if variant.value != nil { query.append((parameter.name, text)) }
                let broken = queryBreaks(parameter, schema: schema, text: variant.value == nil ? nil : text)
                found.append(Case(contract: contract, query: query, body: baseBody.map { .object($0) },
                                  label: "\(parameter.name) \(variant.value == nil ? "absent" : text)", broken: broken))
            }
        }
        if let baseBody, let model = JSONBodyModel(contract: contract, contracts: contracts) {
            for (name, _) in model.properties {
                for variant in model.variants(name) {
                    var body = baseBody
                    body[name] = variant.value
                    var item = Case(contract: contract, query: baseQuery.map { ($0.key, $0.value) }, body: .object(body),
                                    label: "\(name) \(variant.label)", broken: broken(body))
                    if item.broken != nil, let text = variant.value?.stringValue {
                        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                        var plain = body
                        plain[name] = .string(trimmed)
                        item.paddingOnly = !trimmed.isEmpty && trimmed != text && broken(plain) == nil
                    }
                    found.append(item)
                }
            }
        }
        // The whole-body cases go right after the example request, so a small budget still sends them; the operation's
        // other request examples first of all: every example the document gives is a request the server must take.
        var whole: [Case] = []
        if baseBody != nil {
            for example in contract.request.examples.dropFirst() where exampleRequest?.body == nil {
                guard var body = example.body?.objectValue else { continue }
                for key in removing { body[key] = nil }
                whole.append(Case(contract: contract, query: baseQuery.map { ($0.key, $0.value) }, body: .object(body),
                                  label: "the example request \(example.name)", broken: broken(body)))
            }
        }
        if var body = baseBody {
            // A key no schema names: refused only under `additionalProperties: false`, which many servers apply unstated.
            body["spotcheckUnknownKey"] = "x"
            whole.append(Case(contract: contract, query: baseQuery.map { ($0.key, $0.value) }, body: .object(body),
                              label: "an unknown key spotcheckUnknownKey", broken: broken(body)))
        }
        if baseBody != nil {
            // Not an object at all: the error answer of a request no field can be blamed for is one clients meet too.
            whole.append(Case(contract: contract, query: baseQuery.map { ($0.key, $0.value) }, body: .array([]),
                              label: "a list instead of an object", broken: contracts.validator.validate(.array([]), against: bodySchema(contract)).first.map(Self.rule)))
        }
        found.insert(contentsOf: whole, at: 1)
        return found.map(allowedBase)
    }

    /// `/pointer keyword` of a violation: how a broken rule is named and grouped.
    static func rule(_ violation: SchemaViolation) -> String {
        "\(violation.pointer.isEmpty ? "/" : violation.pointer) \(violation.keyword)"
    }

    /// A query value as text: numbers and strings as they are; nil for what a query cannot carry (objects, lists, null).
    static func queryText(_ value: JSONValue?) -> String? {
        guard let value else { return nil }
        if let text = value.stringValue { return text }
        if value.numberValue != nil || value.boolValue != nil { return value.serialized() }
        return nil
    }

    /// The rule of `parameter` the query text breaks (read as the schema's type, as servers parse it); nil when none.
    func queryBreaks(_ parameter: ParameterSpec, schema: JSONValue, text: String?) -> String? {
        guard let text else { return parameter.required ? "\(parameter.name) required" : nil }
        let types = schema["type"]?.arrayValue?.compactMap(\.stringValue) ?? schema["type"]?.stringValue.map { [$0] } ?? []
        var value = JSONValue.string(text)
        if types.contains("integer") || types.contains("number") {
            guard let number = Double(text), number.isFinite else { return "\(parameter.name) type" }
            value = .number(number)
        } else if types.contains("boolean") {
            guard text == "true" || text == "false" else { return "\(parameter.name) type" }
            value = .bool(text == "true")
        }
        return contracts.validator.validate(value, against: schema).first.map { "\(parameter.name) \($0.keyword)" }
    }

    func resolved(_ schema: JSONValue) -> JSONValue {
        contracts.followingReference(schema)
    }

    func bodySchema(_ contract: Contract) -> JSONValue {
        resolved(contract.request.body ?? .object(JSONObject()))
    }

    func send(_ item: Case, client: ExactHTTPClient) async -> ExactHTTPClient.Answer? {
        guard let url = url(item.contract, query: item.query) else { return nil }
        var headers = credentials(item.contract)
        var body = Data()
        if let value = item.body {
            headers["Content-Type"] = "application/json"
            body = value.data()
        }
        return try? await client.send(method: item.contract.method, url: url, headers: headers, body: body)
    }

    /// The findings one answer makes.
    func judge(_ item: Case, _ answer: ExactHTTPClient.Answer, baseRefused: Bool = false) -> [Finding] {
        let contract = item.contract
        let request = "\(contract.method) \(contract.pathTemplate)"
            + (item.query.isEmpty ? "" : "?" + item.query.map { "\($0.0)=\($0.1)" }.joined(separator: "&"))
            + (item.body.map { " " + String($0.serialized().prefix(300)) } ?? "")
        let answered = "\(answer.status) \(String(decoding: answer.body.prefix(200), as: UTF8.self))"
        func finding(_ title: String, expected: String, note: Bool = false) -> Finding {
            Finding(contractID: contract.id, title: title, expected: expected, actual: answered, request: request, count: 1, isNote: note)
        }
        var found: [Finding] = []
        let documented = contract.responses.filter { $0.status == answer.status }
        let statuses = Array(Set(contract.responses.map(\.status))).sorted().map(String.init).joined(separator: ", ")
        if answer.status >= 500 {
            found.append(finding("answers \(answer.status)", expected: "no server error (\(item.label))"))
        } else if documented.isEmpty {
            found.append(finding("answers \(answer.status), which it does not document", expected: "one of \(statuses)"))
        }
        if let broken = item.broken, (200..<300).contains(answer.status) {
            // A format is an annotation unless a validator opts in (JSON Schema 2020-12; OpenAPI 3.0 leaves formats open),
            // and a value that breaks its rule only by surrounding whitespace is one a trimming server reads as meant:
            // both are corners the document leaves open, not rules the server breaks.
            found.append(finding("accepts what the document refuses: \(broken)", expected: "an error answer (\(item.label) breaks \(broken))",
                                 note: item.keyword == "format" || item.paddingOnly))
        }
        if item.broken == nil, item.baseAllowed, [400, 422].contains(answer.status), !documented.isEmpty, !baseRefused {
            // The document states this status; which allowed requests get it beyond what its schemas say (two parameters
            // that go together, a rule in words) it leaves open, so this is a note, grouped by the server's error code.
            let error = (try? JSONValue(parsing: answer.body))?["error"]
            let code = [error?["code"]?.stringValue, error?["field"]?.stringValue].compactMap { $0 }.joined(separator: " ")
            found.append(finding("refuses what the document allows (\(answer.status)\(code.isEmpty ? "" : " " + code))",
                                 expected: "an accepted request: \(item.label) breaks no rule the document states", note: true))
        }
        return found + bodyFindings(contract, status: answer.status, body: answer.body, request: request)
    }

    /// Where an answer's body breaks the schema its status documents (judged by every documented answer of that status:
    /// one it matches is enough), one finding per broken rule, so the same one from many requests is counted, not
    /// repeated. A format in an answer is what a client decodes by (a URL, a date): a failure unless `--formats lenient`.
    func bodyFindings(_ contract: Contract, status: Int, body data: Data, request: String) -> [Finding] {
        let schemas = contract.responses.filter { $0.status == status }.compactMap(\.body)
        guard !schemas.isEmpty, let body = try? JSONValue(parsing: data) else { return [] }
        let violations = schemas.map { contracts.validator.validate(body, against: resolved($0)) }
        guard !violations.contains(where: \.isEmpty), let closest = violations.min(by: { $0.count < $1.count }) else { return [] }
        let answered = "\(status) \(String(decoding: data.prefix(200), as: UTF8.self))"
        return closest.map { violation in
            // List indices are one pointer: the tenth item breaking the item schema is the drift the first shows.
            var item = Finding(contractID: contract.id,
                               title: "\(status) body \(DriftKey.normalized(violation.pointer.isEmpty ? "/" : violation.pointer)) \(violation.keyword)",
                               expected: violation.message, actual: answered, request: request, count: 1,
                               isNote: lenientFormats && violation.keyword == "format")
            item.drift = DriftKey.body(status: status, pointer: violation.pointer, message: violation.message)
            return item
        }
    }
}

extension DocumentExplorer.Outcome {
    /// One result per finding, tagged with its operation and `exploration`, named `explore › operation: title`; then one
    /// failure per server defect, tagged `server-defect`, whatever the document states.
    public func results(strict: Bool) -> [ScenarioResult] {
        findingResults(strict: strict) + defects.map { defect in
            let answered = defect.status.map { "answers \($0)" } ?? "gives no answer"
            var result = ScenarioResult(name: "server defect › \(defect.contractID): \(answered) to \(defect.probes.count) request(s) a client could send by mistake",
                                        file: "contracts", tags: [defect.contractID, "server-defect", "exploration"], status: .failed, duration: .zero)
            result.notes = ["probes: " + defect.probes.joined(separator: "; ")]
            result.failure = ScenarioFailure(stepNumber: nil, action: nil, pointer: nil,
                                             mismatches: [Mismatch("answer", expected: "a 4xx refusing the client's mistake (\(defect.probes.joined(separator: "; ")))",
                                                                   actual: defect.answer)],
                                             journalExcerpt: ["first request: \(defect.request)"])
            return result
        }
    }

    func findingResults(strict: Bool) -> [ScenarioResult] {
        findings.map { finding in
            let failed = !finding.isNote || strict
            var result = ScenarioResult(name: "explore › \(finding.contractID): \(finding.title)", file: "contracts",
                                        tags: [finding.contractID, "exploration"], status: failed ? .failed : .note, duration: .zero)
            result.notes = ["\(finding.count) generated request(s); first: \(finding.request)"]
            if failed {
                // A drift names its place (the status, pointer and rule), which the drift report shows when no example did.
                var mismatch = Mismatch(finding.drift == nil ? "answer" : finding.title, expected: finding.expected, actual: finding.actual)
                mismatch.drift = finding.drift
                result.failure = ScenarioFailure(stepNumber: nil, action: nil, pointer: nil, mismatches: [mismatch],
                                                 journalExcerpt: ["first request: \(finding.request)", "\(finding.count) generated request(s) met it"])
            }
            return result
        }
    }

    /// The console lines: what was sent and left out.
    public var consoleLines: [String] {
        ["explored statelessly (no x-state): \(sent) generated request(s) judged by the contracts' own rules, \(findings.count) finding(s); "
            + "\(probesSent) defect probe(s), \(defects.count) server defect(s)"] + reachedBy.map { "  reached: \($0)" }
            + skipped.map { "  not explored: \($0)" }
    }
}
