import ContractKit
import ContractModel
import Foundation

/// Builds a provider verification plan from a contract set: the documented examples in a stateful order.
///
/// The success flow comes first because later checks need what it creates (create → read → upload →
/// read again → list), then every documented error in contract order. What a contract file cannot
/// carry (a 20 MiB file, a wrong password for a fresh announcement) is derived from the answer's
/// status and error code.
public enum VerificationPlanner {
    /// The checks for `contracts`, in the order they must be sent.
    ///
    /// `adminChecks` includes the checks that need the operator's admin credential (`verify --admin-token`); a
    /// successful DELETE then runs last, after every check that needs the announcement it removes.
    public static func plan(for contracts: ContractSet, adminChecks: Bool = false) -> [VerificationCheck] {
        var flow: [(rank: Int, check: VerificationCheck)] = []
        var negatives: [VerificationCheck] = []
        let setUps = accountSetUps(contracts)
        for contract in contracts.contracts {
            let file = contract.file.lastPathComponent
            for response in contract.responses {
                for sent in examplesSent(contract, response) {
                    var check = makeCheck(contract, file, response, sent.example, named: sent.name, body: sent.body, adminChecks: adminChecks,
                                          contracts: contracts)
                    check.codeStated = ResponseCheck(contracts: contracts, check: check).codeStated
                    if (200..<300).contains(response.status), let create = setUps[contract.id] {
                        check = check.sentAfter(create.recipe(signingUpWith: check.recipe.body))
                    }
                    if (200..<300).contains(response.status) {
                        // After the creates: its own set-up would otherwise take the create's example values first.
                        let rank = rank(contract, sent.example, contracts: contracts)
                        flow.append((setUps[contract.id] == nil ? rank : max(1, rank), check))
                    } else {
                        negatives.append(check)
                    }
                }
            }
        }
        // A stable sort keeps file order within one rank.
        let ordered = flow.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }
        let removals = onlyFirstRemoval(ordered.filter { $0.element.rank >= 5 }.map(\.element.check))
        return ordered.filter { $0.element.rank < 5 }.map(\.element.check) + negatives + removals
    }

    /// The flow creates one announcement, so only the first successful removal can find it (the same DELETE is
    /// documented under both mounts); the others are reported as skipped, saying which check removed it.
    static func onlyFirstRemoval(_ removals: [VerificationCheck]) -> [VerificationCheck] {
        guard let first = removals.first(where: { $0.skipReason == nil }) else { return removals }
        return removals.map { check in
            guard check.skipReason == nil, check.name != first.name else { return check }
            var skipped = VerificationCheck(contractID: check.contractID, file: check.file, exampleName: check.exampleName, response: check.response,
                                            expectedField: check.expectedField, recipe: check.recipe,
                                            skipReason: "the one record the flow creates is removed by \(first.name) already")
            skipped.codeStated = check.codeStated
            return skipped
        }
    }

    /// Where a success example sits in the flow: creation first, reads of the fresh record before a file is attached,
    /// reads that show the attached file after it (the field an `attach-file` declaration fills, set or null in the example).
    static func rank(_ contract: Contract, _ example: ContractExample?, contracts: ContractSet) -> Int {
        // Logging in needs what a create of the same collection registered first.
        if contract.source["x-state"]?["action"]?.stringValue == "authenticate" { return 1 }
        switch contract.method {
        case "POST" where contract.request.contentType == "application/json": return 0
        case "POST", "PUT": return 2
        case "DELETE": return 5
        default:
            let fileFields = contracts.state.declarations.values.compactMap(\.file?.field)
            if let field = fileFields.first(where: { example?.body?[$0] != nil }), let value = example?.body?[field] { return value.isNull ? 1 : 3 }
            return 4
        }
    }

    /// One example a check is made from: its name, the documented answer's example (nil when the answer has none by that
    /// name) and the JSON body sent, when a request example rather than the answer's own request says it.
    struct SentExample {
        let name: String
        let example: ContractExample?
        let body: JSONValue?
    }

    /// Every example of an answer is sent: each of its own examples, and for a success, each request example no answer
    /// example already sends (a document lists its request bodies apart from its answers: every one is a request the
    /// server must accept). A request example is judged against the answer example of the same name, else the first.
    static func examplesSent(_ contract: Contract, _ response: ResponseSpec) -> [SentExample] {
        let own = response.examples.map { SentExample(name: $0.name, example: $0, body: nil) }
        let isMultipart = contract.request.contentType?.hasPrefix("multipart/") == true
        guard (200..<300).contains(response.status), !isMultipart, ["POST", "PUT", "PATCH"].contains(contract.method) else { return own }
        let requests = contract.request.examples.filter { $0.body != nil }
        guard !requests.isEmpty else { return own }
        let sentByAnswers = response.examples.compactMap { $0.request?.body }
        let bodiless = response.examples.filter { $0.request == nil }
        let extra = requests.filter { request in !sentByAnswers.contains { $0 == request.body } }.map { request in
            SentExample(name: request.name, example: bodiless.first { $0.name == request.name } ?? bodiless.first, body: request.body)
        }
        guard !extra.isEmpty else { return own }
        // An answer example without a request would only repeat the first request example: the request examples stand for it.
        return response.examples.filter { $0.request != nil }.map { SentExample(name: $0.name, example: $0, body: nil) } + extra
    }

    static func makeCheck(_ contract: Contract, _ file: String, _ response: ResponseSpec, _ example: ContractExample?, named name: String,
                          body sentBody: JSONValue? = nil, adminChecks: Bool = false, contracts: ContractSet) -> VerificationCheck {
        let exampleRequest = example?.request
        var recipe = RequestRecipe(
            method: contract.method,
            pathTemplate: contract.pathTemplate,
            pathParameters: exampleRequest?.pathParameters ?? [:],
            query: (exampleRequest?.query ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            headers: exampleRequest?.headers ?? [:],
            body: .none,
            credentials: .none
        )
        let isMultipart = contract.request.contentType?.hasPrefix("multipart/") == true
        let filePart = contract.request.parts.first { $0.kind == "file" }?.name ?? "photo"
        if let body = sentBody ?? exampleRequest?.body {
            recipe.body = .json(body)
        } else if let raw = exampleRequest?.rawBody {
            recipe.body = .raw(raw)
        } else if let parts = exampleRequest?.parts, !parts.isEmpty {
            recipe.body = .multipartParts(parts.sorted { $0.key < $1.key }.map { (name: $0.key, isFile: $0.value == "file") })
        } else if contract.method == "POST", let body = contract.request.examples.first?.body, !isMultipart {
            recipe.body = .json(body)
        } else if isMultipart {
            recipe.body = .multipart(part: filePart, file: .smallPNG)
        }
        // An example that spells out its Authorization header (or `"headers": {}`) means exactly that; one that only
        // spells out its body still needs the created announcement's credentials.
        let spellsOutHeaders = exampleRequest.map { $0.headers.keys.contains { $0.lowercased() == "authorization" } || ($0.headers.isEmpty && $0.body == nil && $0.rawBody == nil && $0.parts.isEmpty) } ?? false
        if contract.request.auth?.scheme == "basic" && !spellsOutHeaders {
            recipe.credentials = .basicCreated
        }
        if contract.request.auth?.scheme == "apiKey", contract.request.auth?.header.lowercased() == "authorization", !spellsOutHeaders {
            recipe.credentials = .adminToken
        }
        // The upload's own answers, as its state declaration states them (x-state.file.x-errors): no file, not an image.
        func fileAnswerCode(_ rule: String) -> String? { contract.source["x-state"]?["file"]?["x-errors"]?[rule]?["code"]?.stringValue }
        var skipReason: String?
        // Whether the request for this answer follows from the contract alone; an error example that names no request and
        // gets none derived would be sent as the success request and judged against the error: a false alarm.
        var derived = false
        switch (response.status, response.code) {
        case (500..., _):
            skipReason = "no request can make a healthy server fail; this answer is documented for clients"
        case (413, _):
            derived = true
            if isMultipart, let limit = contract.request.maxFileBytes {
                recipe.body = .multipart(part: filePart, file: .paddedPNG(bytes: limit))
            } else if let limit = contract.request.maxBodyBytes {
                recipe.body = .oversizedJSON(bytes: limit + 1024)
            } else {
                skipReason = "the contract states no size limit to exceed"
            }
        case (403, _):
            recipe.credentials = .basicWrongPassword
            derived = contract.request.auth?.scheme == "basic"
        case (404, _):
            derived = contract.request.auth?.scheme == "basic" || !contract.pathParameters.isEmpty
            if contract.request.auth?.scheme == "basic" {
                recipe.credentials = .basicUnknownAnnouncement
            } else {
                for parameter in contract.pathParameters where recipe.pathParameters[parameter.name] == nil {
                    recipe.pathParameters[parameter.name] = "{unknown}"
                }
            }
        case (400, let code?) where code == fileAnswerCode("required") && exampleRequest?.parts.isEmpty ?? true:
            // The documented "no file" request: multipart with only a text field.
            recipe.body = .multipartParts([(name: "note", isFile: false)])
            derived = true
        case (400, let code?) where code == fileAnswerCode("detect"):
            recipe.body = .multipart(part: filePart, file: .text)
            derived = true
        case (409, _) where exampleRequest == nil && contract.method == "POST" && recipe.body.isJSON:
            // A conflict is the repeat of what the document says must be unique: the create sent again with a request
            // example that carries the field the conflict is tied to, once that example's create went through.
            derived = true
            let tie = ConflictTie(contract: contract, response: response, example: example, contracts: contracts)
            if tie.fields.isEmpty {
                skipReason = "the document does not say which value must be unique (no property of the request is named by the "
                    + "conflict's field, description or message), so no request is known to conflict"
            } else if let repeated = tie.repeatedExample {
                recipe.body = .json(repeated.body ?? .null)
                recipe.repeats = "\(contract.id) › \(repeated.name)"
            } else {
                skipReason = "the document ties this conflict to a duplicate of \(tie.fields.joined(separator: ", ")), which none of its "
                    + "request examples carries: the same create again without it is a new record"
            }
        default:
            break
        }
        if exampleRequest == nil, !derived, skipReason == nil, !(200..<300).contains(response.status) {
            skipReason = "the example names no request that gives this answer, and none follows from the contract (the example's "
                + "x-request, or request in a contract file, says which)"
        }
        if let auth = contract.request.auth, auth.scheme != "basic", skipReason == nil, (recipe.credentials == .adminToken && !adminChecks) || (exampleRequest == nil && auth.header.lowercased() != "authorization") {
            skipReason = "needs the \(auth.header) credential (\(auth.scheme)) that only the server's operators have; give --admin-token to include it"
        }
        let field = example?.body?["error"]?["field"]?.stringValue
        return VerificationCheck(contractID: contract.id, file: file, exampleName: name, response: response,
                                 expectedField: field, recipe: recipe, skipReason: skipReason)
    }

    /// A document without `x-state` cannot say that an operation's success needs a record another operation creates (a
    /// login needs the account a register makes). When one POST's request body is made only of fields another POST
    /// creates with (it answers 201), that create is sent first with the same values, once per success check.
    static func accountSetUps(_ contracts: ContractSet) -> [String: Contract] {
        guard !contracts.contracts.contains(where: { $0.source["x-state"] != nil }) else { return [:] }
        func properties(_ contract: Contract) -> Set<String> { Set(ConflictTie.requestProperties(contract, contracts: contracts)) }
        let creates = contracts.contracts.filter { $0.method == "POST" && $0.responses.contains { $0.status == 201 } && $0.request.examples.first?.body != nil }
        var found: [String: Contract] = [:]
        for contract in contracts.contracts where contract.method == "POST" && !contract.responses.contains(where: { $0.status == 201 }) {
            let sent = Set(contract.request.examples.first?.body?.objectValue?.keys.map { $0 } ?? [])
            guard !sent.isEmpty else { continue }
            if let create = creates.first(where: { $0.id != contract.id && sent.isSubset(of: properties($0)) }) { found[contract.id] = create }
        }
        return found
    }

    /// The plan as text, one numbered line per check, for `--dry-run`.
    public static func describe(_ plan: [VerificationCheck]) -> String {
        var lines: [String] = []
        for (i, check) in plan.enumerated() {
            let expected = check.expectedLabel
            let path = check.recipe.pathTemplate
            var line = "\(i + 1). \(check.name): \(check.recipe.method) \(path) → \(expected)"
            if let first = check.recipe.before.first { line += " (after \(first.method) \(first.pathTemplate) with the same values)" }
            if let reason = check.skipReason { line += " (skipped: \(reason))" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
