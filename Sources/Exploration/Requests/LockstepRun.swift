import ContractKit
import ContractModel
import Foundation
import MockBackend
import ScenarioEngine

/// What one generated request got from the server and the model, and how the answers differ.
struct CaseObservation: Sendable {
    /// The request as generated.
    let request: GeneratedRequest
    /// The request as sent to the server.
    let sent: RenderedRequest
    /// How the server answered (`summary` form), or why it did not.
    let serverSummary: String
    /// How the model answered.
    let modelSummary: String
    /// The differences that count (empty when the server answered as the model).
    let differences: [AnswerDifference]
    /// The listed known defect the server's answer matches, when the model with known defects answered the same.
    let knownDefect: KnownDefect?
    /// Header names only the server sent, and only the model sent.
    let headersAdded: [String]
    let headersRemoved: [String]
    /// Whether the differences break a stated rule or lie where the model assumed (see `StatedAspects`).
    var verdict: DifferenceVerdict = .failure
    /// The status each side answered (server, model, model with known defects); empty when a side gave no answer.
    var statuses: [Int] = []
    /// Each side's JSON answer body (server, model, model with known defects), for a walk that reads what a step made.
    var bodies: [JSONValue?] = []
    /// The read after a walk's write whose answer differed, when the differences are that read's.
    var readBack: GeneratedRequest? = nil

    /// The route that differed: the read's, when a read after a write found the difference, else the request's.
    var route: String { readBack?.route ?? request.route }

    /// The key two observations share when they differ the same way: the route, the aspects that differ, and what the
    /// server answers in them. The model's side is left out on purpose: a server that now rejects a blank email
    /// differs from whichever error the model gives first for the rest of the body, and that is still one rule.
    var signature: String {
        let status = differences.first { $0.aspect == "status" }.map { "model \($0.model.prefix(3)) " } ?? ""
        // A note and a failure are never one rule: shrinking keeps a step only when the verdict stays too.
        return ([route, status, knownDefect?.id ?? "", verdict.isNote ? "note" : ""] + differences.map { $0.groupsByValue ? "\($0.aspect): \($0.server)" : $0.aspect }).joined(separator: " | ")
    }
}

/// Sends each generated request to the server, the model and the model with known defects, in lockstep: the same
/// sequence reaches all three, the run's announcements live on each, and each side's ids and passwords are mapped to
/// the same labels before answers are compared.
struct LockstepRun: Sendable {
    private(set) var server: ExplorationSide
    private(set) var model: ExplorationSide
    private(set) var modelWithDefects: ExplorationSide
    let contracts: ContractSet
    let client: ExactHTTPClient
    let adminToken: String?
    private(set) var comparison: AnswerComparison
    /// The announcements this run created on the server (the slots and every generated create it accepted).
    private(set) var createdOnServer: [String] = []
    /// The unique values the run's first record registered, by field.
    private var registered: [String: String] = [:]
    private var freshCounter = 0
    private let nonce: UInt64
    private var random: ModelRandom
    /// The body field keying the records each create or authenticate with a declared key names (contract id → field).
    private let keyFields: [String: String]
    /// From the clock, not the seed: what makes this run's unique values new to a shared server.
    let runToken: String
    private let uniqueFields: [String: [String]]
    /// Every unique value the run's cases and walks made, so none meets another by chance.
    let ledger = StandInLedger()
    private let allUniqueFields: Set<String>

    /// Whether the model side is a baseline server (`verify --baseline`): header values and token claims are compared
    /// too, as changes.
    let comparesWithBaseline: Bool

    init(server: ExplorationSide.Transport, model: ExplorationSide.Transport, modelWithDefects: ExplorationSide.Transport, contracts: ContractSet, timeout: Duration, adminToken: String?,
         ignoreMessages: Bool, seed: UInt64, baseline: Bool = false) {
        self.server = ExplorationSide(name: "server", transport: server)
        self.model = ExplorationSide(name: baseline ? "baseline" : "model", transport: model)
        self.comparesWithBaseline = baseline
        self.modelWithDefects = ExplorationSide(name: "model with known defects", transport: modelWithDefects)
        self.contracts = contracts
        self.client = ExactHTTPClient(timeout: timeout)
        self.adminToken = adminToken
        var comparison = AnswerComparison(ignoreMessages: ignoreMessages)
        comparison.generated = AnswerComparison.generatedMembers(of: contracts)
        comparison.contracts = contracts
        comparison.comparesTokenClaims = baseline
        self.comparison = comparison
        // Keys and unique values must be new to a shared server on every run, so they come from the clock, not the seed.
        self.nonce = UInt64(Date().timeIntervalSince1970 * 1000) % 1_000_000
        // A stream of its own: `serve --seed N` draws its ids from ModelRandom(seed: N), so drawing "an id no server
        // holds" from that same stream gave out an id such a server had just created (a walk's delete of a refused
        // record then answered 204 there and 404 in the model).
        self.random = ModelRandom(seed: seed ^ Self.streamOffset)
        var keyFields: [String: String] = [:]
        for (contractID, declaration) in contracts.state.declarations where [.create, .authenticate].contains(declaration.action) {
            if let key = declaration.key { keyFields[contractID] = key }
        }
        self.keyFields = keyFields
        self.runToken = String(UInt64(Date().timeIntervalSince1970 * 1000) % 1_000_000_000) + UniqueStandIns.makeRunToken()
        self.uniqueFields = FreshValues.uniqueFields(of: contracts)
        self.allUniqueFields = Set(uniqueFields.values.joined())
    }

    /// Creates the run's own announcements on every side, one per request, in slot order; returns why that failed, if it did.
    mutating func createSlots(_ requests: [GeneratedRequest]) async -> String? {
        for (slot, request) in requests.enumerated() {
            let fresh = nextFresh()
            if slot == 0, let body = bodyJSON(request), let contractID = request.contractID {
                let sent = fresh.withUniqueValues(body, contractID: contractID)
                for field in uniqueFields[contractID] ?? [] { registered[field] = sent[field]?.stringValue }
            }
            var created: [(id: String, password: String)] = []
            for side in [server, model, modelWithDefects] {
                let rendered = side.render(request, fresh: fresh, adminToken: adminToken)
                let answer: ExactHTTPClient.Answer
                do {
                    answer = try await side.send(rendered, client: client)
                } catch {
                    // The reason is kept: a setup that fails only under load must say why (refused, timed out, cut).
                    return "\(side.name): no answer to \(rendered.display): \(error)"
                }
                let body = try? JSONValue(parsing: answer.body)
                guard answer.status == 201, let id = body?["id"]?.stringValue else {
                    return "\(side.name) did not create a record: \(rendered.display) → \(AnswerComparison.summary(answer))"
                }
                // A server that renames the secret still explores: its uploads then differ from the model's.
                created.append((id, secret(in: body, createdBy: request) ?? ""))
            }
            server.ids.append(created[0].id)
            server.passwords.append(created[0].password)
            model.ids.append(created[1].id)
            model.passwords.append(created[1].password)
            modelWithDefects.ids.append(created[2].id)
            modelWithDefects.passwords.append(created[2].password)
            createdOnServer.append(created[0].id)
            for side in created { label(id: side.id, as: "\(slot)") }
        }
        return nil
    }

    /// Against a baseline: reads the run's first record and its list twice on the baseline alone and keeps the header
    /// names whose values differ between the two identical reads as noise (never a change). Returns them, sorted.
    mutating func measureBaselineNoise() async -> [String] {
        // The first create in contract order: a dictionary's first changed with each process's hash seed, so a recording
        // and its replay (two processes) read different records here and fell out of step.
        guard comparesWithBaseline, let id = model.ids.first, let createContract = contracts.contracts(doing: .create).first
        else { return [] }
        let create = createContract.id
        var paths: [String] = []
        if let reader = readContract(after: create) { paths.append(reader.template.replacingOccurrences(of: reader.parameter, with: id)) }
        if contracts.contracts.contains(where: { $0.method == "GET" && $0.pathTemplate == createContract.pathTemplate }) {
            paths.append(createContract.pathTemplate)
        }
        var noise: Set<String> = []
        for path in paths {
            guard let first = await model.read(path, client: client), let second = await model.read(path, client: client) else { continue }
            var probe = comparison
            probe.measuredNoise = []
            for difference in probe.headerValueDifferences(baseline: first, server: second, service: contracts.service) {
                noise.insert(String(difference.aspect.dropFirst("header ".count)))
            }
        }
        comparison.measuredNoise = noise
        return noise.sorted()
    }

    /// How many records the sides hold by slot (the run's own first, then a walk's).
    var slotCount: Int { server.ids.count }

    /// Adds one slot on every side: the record a walk created (its id and secret on each side: server, model, model
    /// with known defects), labelled alike so answers that name it compare equal.
    mutating func addSlot(ids: [String], secrets: [String], label name: String) {
        server.ids.append(ids[0])
        server.passwords.append(secrets[0])
        model.ids.append(ids[1])
        model.passwords.append(secrets[1])
        modelWithDefects.ids.append(ids[2])
        modelWithDefects.passwords.append(secrets[2])
        for id in Set(ids) where id.count > 6 { label(id: id, as: name) }
    }

    /// Drops every slot after the first `count` (a walk's records, once it ends), and their labels: a later list compares
    /// only the records of the walk that lists.
    mutating func keepSlots(_ count: Int) {
        for side in [server, model, modelWithDefects] {
            for id in side.ids.dropFirst(count) { comparison.labels[id] = nil }
        }
        for index in [0, 1, 2] {
            var side = [server, model, modelWithDefects][index]
            side.ids = Array(side.ids.prefix(count))
            side.passwords = Array(side.passwords.prefix(count))
            switch index {
            case 0: server = side
            case 1: model = side
            default: modelWithDefects = side
            }
        }
    }

    /// Sends `request` to every side without comparing the answers (a walk's clean-up).
    mutating func sendQuietly(_ request: GeneratedRequest) async {
        let fresh = nextFresh()
        for side in [server, model, modelWithDefects] {
            _ = try? await side.send(side.render(request, fresh: fresh, adminToken: adminToken), client: client)
        }
    }

    /// Sends `request` to every side and compares the answers (and, after a 201 everywhere, the announcement read back).
    mutating func execute(_ request: GeneratedRequest) async -> CaseObservation {
        var fresh = nextFresh()
        // A route beyond the contracts (the path in upper case) still creates through the contract the server routes it to.
        var routed = request.contractID
        if routed == nil, case .endpoint(_, let contractID, _) = contracts.routes.resolve(method: request.method.uppercased(), path: request.path) {
            routed = contractID
        }
        fresh.keyField = routed.flatMap { keyFields[$0] }
        let sides = [server, model, modelWithDefects]
        let rendered = sides.map { $0.render(request, fresh: fresh, adminToken: adminToken) }
        // The three sides answer independently, so they are asked at once.
        let client = self.client
        async let serverResult = Self.answer(sides[0], rendered[0], client)
        async let modelResult = Self.answer(sides[1], rendered[1], client)
        async let defectsResult = Self.answer(sides[2], rendered[2], client)
        let results = await [serverResult, modelResult, defectsResult]
        var answers: [ExactHTTPClient.Answer] = []
        for (side, result) in zip(sides, results) {
            switch result {
            case .success(let answer):
                answers.append(answer)
            case .failure(let error):
                if ExplorationSide.isUnrecorded(error) {
                    // A recorded baseline without this request compares nothing; the report counts such requests.
                    return CaseObservation(request: request, sent: rendered[0], serverSummary: "-", modelSummary: "-", differences: [],
                                           knownDefect: nil, headersAdded: [], headersRemoved: [])
                }
                let reason = "no answer (\(error))"
                let difference = AnswerDifference(aspect: "answer", model: side.name == "server" ? "an answer" : reason,
                                                  server: side.name == "server" ? reason : "an answer", groupsByValue: true, excusable: false)
                return CaseObservation(request: request, sent: rendered[0], serverSummary: side.name == "server" ? reason : "-",
                                       modelSummary: side.name == "server" ? "-" : reason, differences: [difference], knownDefect: nil,
                                       headersAdded: [], headersRemoved: [])
            }
        }
        let (serverAnswer, modelAnswer, defectsAnswer) = (answers[0], answers[1], answers[2])
        if serverAnswer.status == 201, request.method == "POST", let id = (try? JSONValue(parsing: serverAnswer.body))?["id"]?.stringValue {
            createdOnServer.append(id)
        }
        var differences = comparison.differences(model: modelAnswer, server: serverAnswer)
        differences += comparison.generatedDifferences(model: modelAnswer, server: serverAnswer, contractID: request.contractID, besides: differences)
        var knownDefect: KnownDefect?
        if !differences.isEmpty, comparison.differences(model: defectsAnswer, server: serverAnswer).isEmpty {
            // The same trigger the mock reproduces the defect by names which listed defect this is.
            let sent = rendered[2]
            // Routed by the run's own contracts: the users endpoints exist only in the newer folder.
            if let trigger = KnownDefectTriggers.trigger(method: sent.method, path: sent.path, headers: sent.headers.map { ($0.key, $0.value) },
                                                         body: [UInt8](sent.body), contracts: contracts, multipart: MultipartKitScanner()) {
                knownDefect = contracts.knownDefects.defect(contractID: trigger.contractID, trigger: trigger.trigger)
            }
        }
        var read: (contractID: String?, assumptions: [String]) = (nil, [])
        // Against a baseline the baseline's 201 alone decides the read: recording, the first side is the model, replaying
        // it is the target, and a create only the model refuses (a known defect) read back in one and not the other put
        // the replay's later requests and fresh values out of step with the recording's.
        if request.readsBack, comparesWithBaseline ? answers[1].status == 201 : answers.allSatisfy({ $0.status == 201 }) {
            let readBack = await readBack(answers, after: request)
            differences += readBack.differences
            read = (readBack.contractID, readBack.assumptions)
        }
        // A known defect's answer is the defect model's (some carry no request-id), so its headers are compared with that.
        let headers = AnswerComparison.headerChanges(model: knownDefect == nil ? modelAnswer : defectsAnswer, server: serverAnswer)
        // A header value service.json states (CORS, helmet's) that the server changes or drops is a difference; one it adds is not.
        let statedHeaders = AnswerComparison.statedHeaderDifferences(model: knownDefect == nil ? modelAnswer : defectsAnswer, server: serverAnswer,
                                                                     service: contracts.service)
        differences += statedHeaders
        // One difference never hides another: a header value that changed beside a changed body is a change of its own.
        // Beside another status the headers describe another answer, and their values say nothing new.
        if comparesWithBaseline, modelAnswer.status == serverAnswer.status {
            differences += comparison.headerValueDifferences(baseline: modelAnswer, server: serverAnswer, service: contracts.service)
        }
        // A listed defect whose answer now changes a stated header is no longer exactly that defect.
        if !statedHeaders.isEmpty { knownDefect = nil }
        // A header the contract requires on this answer is part of the contract, not information: its loss is a difference.
        let required = request.contractID.flatMap { contracts.contract(id: $0)?.response(status: modelAnswer.status) }?.headers
            .filter(\.required).map { $0.name.lowercased() } ?? []
        for name in headers.removed where required.contains(name) && knownDefect == nil {
            differences.append(AnswerDifference(aspect: "header \(name)", model: "sent (the contract requires it)", server: "absent", groupsByValue: true,
                                                excusable: false))
        }
        // A write's effect is read right away, whatever it answered: the record, its file, the list.
        var added = headers.added
        var removed = headers.removed.filter { name in
            (!required.contains(name) || knownDefect != nil) && !statedHeaders.contains { $0.aspect == "header \(name)" }
        }
        for next in request.then {
            let seen = await execute(next)
            let name = "then \(next.method) \(next.path) "
            let readStatus = seen.modelSummary.split(separator: " ").first.flatMap { Int($0) }
            differences += seen.differences.map {
                AnswerDifference(aspect: name + $0.aspect, model: $0.model, server: $0.server, groupsByValue: $0.groupsByValue,
                                 bodyPointer: $0.bodyPointer, excusable: $0.excusable, readContractID: next.contractID, readStatus: readStatus,
                                 unstated: $0.unstated)
            }
            added += seen.headersAdded.filter { !added.contains($0) }
            removed += seen.headersRemoved.filter { !removed.contains($0) }
        }
        var observation = CaseObservation(request: request, sent: rendered[0], serverSummary: AnswerComparison.summary(serverAnswer),
                                          modelSummary: AnswerComparison.summary(modelAnswer), differences: differences, knownDefect: knownDefect,
                                          headersAdded: added, headersRemoved: removed)
        observation.statuses = answers.map(\.status)
        if request.keepsUniqueValues { observation.bodies = answers.map { try? JSONValue(parsing: $0.body) } }
        if !differences.isEmpty, knownDefect == nil {
            observation.verdict = StatedAspects(contracts: contracts).verdict(
                differences, contractID: request.contractID, status: modelAnswer.status,
                assumptions: AssumptionHeader.assumptions(in: modelAnswer.headers), readContractID: read.contractID, readAssumptions: read.assumptions)
        }
        return observation
    }

    private static func answer(_ side: ExplorationSide, _ request: RenderedRequest, _ client: ExactHTTPClient) async -> Result<ExactHTTPClient.Answer, ProxyError> {
        do {
            return .success(try await side.send(request, client: client))
        } catch {
            return .failure(error)
        }
    }

    /// Deletes `ids` on the server with the admin token; returns the ids it could not delete, with why.
    func delete(_ ids: [String]) async -> [String] {
        guard let deleter = deleteContract() else {
            return ids.map { "\($0) (no contract of the set deletes a record: none has `x-state` action delete and one path parameter)" }
        }
        var failed: [String] = []
        for id in ids {
            let request = GeneratedRequest(contractID: deleter.id, method: "DELETE", path: deleter.template.replacingOccurrences(of: deleter.parameter, with: id),
                                           label: "clean up", credentials: .adminToken)
            let rendered = server.render(request, fresh: nextFreshConstant(), adminToken: adminToken)
            let answer = try? await server.send(rendered, client: client)
            if let answer, answer.status == 204 || answer.status == 200 || answer.status == 404 { continue }
            failed.append("\(id) (\(answer.map(AnswerComparison.summary) ?? "no answer"))")
        }
        return failed
    }

    /// Reads each side's new record back (through the contract that reads what `request`'s contract creates) and compares
    /// what it stored; with the read contract and what the model assumed in its read answer.
    private mutating func readBack(_ answers: [ExactHTTPClient.Answer], after request: GeneratedRequest) async
        -> (differences: [AnswerDifference], contractID: String?, assumptions: [String])
    {
        let ids = answers.map { (try? JSONValue(parsing: $0.body))?["id"]?.stringValue }
        guard let modelID = ids[1], comparesWithBaseline || ids[0] != nil, let reader = creator(of: request).flatMap(readContract(after:))
        else { return ([], nil, []) }
        freshCounter += 1
        for id in ids.compactMap({ $0 }) { label(id: id, as: "created \(freshCounter)") }
        let client = self.client
        guard let serverID = ids[0] else {
            // Only the baseline created: its read is still sent, so a recording holds what its replay asks; the create's
            // own status already tells the difference.
            _ = await Self.read(reader.template.replacingOccurrences(of: reader.parameter, with: modelID), on: model, client)
            return ([], reader.id, [])
        }
        let serverPath = reader.template.replacingOccurrences(of: reader.parameter, with: serverID)
        let modelPath = reader.template.replacingOccurrences(of: reader.parameter, with: modelID)
        async let serverRead = Self.read(serverPath, on: server, client)
        async let modelRead = Self.read(modelPath, on: model, client)
        guard let fromServer = await serverRead, let fromModel = await modelRead else {
            return ([AnswerDifference(aspect: "read back", model: "an answer", server: "no answer", groupsByValue: true, excusable: false)], reader.id, [])
        }
        return (comparison.differences(model: fromModel, server: fromServer, prefix: AnswerDifference.readBackPrefix), reader.id,
                AssumptionHeader.assumptions(in: fromModel.headers))
    }

    /// The contract `request` creates through: its own, or for a route beyond the contracts (another mount) the contract
    /// with the same method and a JSON body.
    private func creator(of request: GeneratedRequest) -> String? {
        request.contractID ?? contracts.contracts.first { $0.method == request.method && $0.request.contentType == "application/json" }?.id
    }

    /// The contract that reads one record of what `contractID` creates: a GET of the create's path and one parameter.
    private func readContract(after contractID: String) -> (id: String, template: String, parameter: String)? {
        guard let create = contracts.contract(id: contractID) else { return nil }
        let reader = contracts.contracts.first { contract in
            contract.method == "GET" && contract.pathParameters.count == 1 && contract.pathTemplate.hasPrefix(create.pathTemplate + "/{")
                && contract.pathTemplate.hasSuffix("}") && !contract.pathTemplate.dropFirst(create.pathTemplate.count + 1).contains("/")
        }
        guard let reader, let parameter = reader.pathParameters.first?.name else { return nil }
        return (reader.id, reader.pathTemplate, "{\(parameter)}")
    }

    /// The contract that deletes one created record: a DELETE whose `x-state` deletes, with one path parameter; the one at
    /// a create's path plus that parameter first (the set's own route, not an admin mount of it).
    private func deleteContract() -> (id: String, template: String, parameter: String)? {
        let deleters = contracts.contracts(doing: .delete).filter { $0.method == "DELETE" && $0.pathParameters.count == 1 }
        let createPaths = contracts.contracts(doing: .create).map(\.pathTemplate)
        let chosen = deleters.first { deleter in createPaths.contains { deleter.pathTemplate.hasPrefix($0 + "/{") } } ?? deleters.first
        guard let chosen, let parameter = chosen.pathParameters.first?.name else { return nil }
        return (chosen.id, chosen.pathTemplate, "{\(parameter)}")
    }

    private static func read(_ path: String, on side: ExplorationSide, _ client: ExactHTTPClient) async -> ExactHTTPClient.Answer? {
        await side.read(path, client: client)
    }

    // Passwords are not labelled: six digits repeat across hundreds of creates, and an answer's password is compared by shape.
    private mutating func label(id: String, as name: String) {
        comparison.labels[id] = "<record \(name)>"
    }

    private func bodyJSON(_ request: GeneratedRequest) -> JSONValue? {
        if case .json(let json) = request.body { return json }
        return nil
    }

    /// Sets the exploration's draws apart from a seeded server's (any constant other than 0 would do).
    static let streamOffset: UInt64 = 0x5107_C4EC_0000_0001

    private mutating func nextFresh() -> FreshValues {
        freshCounter += 1
        return FreshValues(unknownID: random.uuid(), unique: UniqueStandIns(fields: allUniqueFields, runToken: "\(runToken)-\(freshCounter)"),
                           run: UniqueStandIns(fields: allUniqueFields, runToken: runToken), registered: registered,
                           fieldsByContract: uniqueFields, boundary: String(random.next() % 1_000_000_000), ledger: ledger, runTag: runTag)
    }

    /// The run's tag for record keys: the clock's nonce in base 36, its fastest-changing digit first, so even a one-letter
    /// domain label differs between most runs (see `FreshValues.runTag`).
    private var runTag: String { String(String(nonce, radix: 36).reversed()) }

    private func nextFreshConstant() -> FreshValues {
        FreshValues(unknownID: "00000000-0000-4000-8000-000000000000", unique: UniqueStandIns(fields: [], runToken: runToken),
                    run: UniqueStandIns(fields: [], runToken: runToken), registered: [:], fieldsByContract: [:], boundary: "0")
    }

    /// The secret the create answered (the first field its `x-state.secret` names), e.g. the password that opens the record.
    func secret(in body: JSONValue?, createdBy request: GeneratedRequest) -> String? {
        let contractID = creator(of: request)
        guard let name = contractID.flatMap({ contracts.state.declaration(for: $0)?.secret.first }) else { return nil }
        return body?[name]?.stringValue
    }
}
