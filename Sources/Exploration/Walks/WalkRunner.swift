import ContractKit
import ContractModel
import Foundation
import MockBackend
import ScenarioEngine

/// Runs walks in lockstep on the server and both models: each step is rendered from what earlier steps made (ids,
/// secrets, unique values, of deleted and refused records too), sent to every side and compared like any generated
/// request; the model's answers move the walk's state, and the next step is chosen from it.
struct WalkRunner: Sendable {
    /// What one walk did.
    struct Result: Sendable {
        /// The steps sent, in order (a generated walk's choices, or a replay's).
        var steps: [WalkStep] = []
        /// The first step whose answers differ, with its observation.
        var difference: (step: Int, observation: CaseObservation)?
        /// Requests sent (steps and the clean-up).
        var requests = 0
    }

    let operations: WalkOperations
    let contracts: ContractSet
    /// Deletes are sent (and a walk's records removed after it) only with the admin token.
    let adminChecks: Bool
    /// Walk on after a step differs, reading back as the baseline alone answered (a recorded baseline's runs:
    /// the recording and its replay must send the same steps whatever the target answers). Only the first
    /// difference of a walk is kept.
    var followsBaseline = false
    /// Records a walk that fills a list creates (more than any plausible page or size limit).
    static let fillRecords = 55

    /// A new walk of at most `length` steps chosen with `random` from the model's state; the walk named `walk` (its
    /// index, which with the seed reproduces it); stops at the first step that differs.
    func generate(walk: Int, length: Int, random: inout ModelRandom, on run: inout LockstepRun) async -> Result {
        await send(walk: "\(walk)", on: &run) { index, last, state in
            index < length ? choose(name: index, after: last, state: state, random: &random) : nil
        }
    }

    /// The walk that passes every page and size limit: `fillRecords` records of the first listed collection, each made
    /// to match its lists (a file attached where a list shows only records with one), then every list.
    func fillWalk() -> [WalkStep] {
        guard let collection = operations.collections.first(where: { !$0.lists.isEmpty }) else { return [] }
        var steps: [WalkStep] = []
        for _ in 0..<Self.fillRecords {
            let name = steps.count
            steps.append(WalkStep(contractID: collection.create.contractID, kind: .create(.fresh), name: name))
            if collection.listNeedsFile, let attach = collection.attaches.first {
                steps.append(WalkStep(contractID: attach, kind: .attach(record: name, secretOf: name), name: steps.count))
            }
        }
        for list in collection.lists { steps.append(WalkStep(contractID: list, kind: .list, name: steps.count)) }
        return steps
    }

    /// Where a walk reads back what its writes made.
    enum ReadBack: Sendable {
        /// After every write: how walks search, and how a reported walk replays.
        case afterEveryWrite
        /// After the last step only: how the shrinker tries a candidate. Its difference was seen after its last
        /// write, and every earlier read back multiplies a replay's requests (lists of dozens of records) for nothing.
        case afterLastStep
    }

    /// Sends `steps` as they are (a replay, `attempt` keeping its unique values apart from earlier ones); stops at the
    /// first step that differs.
    func replay(_ steps: [WalkStep], walk: String, readBack: ReadBack = .afterEveryWrite, on run: inout LockstepRun) async -> Result {
        await send(walk: walk, readBack: readBack, on: &run) { index, _, _ in index < steps.count ? steps[index] : nil }
    }

    /// Sends the steps `next` gives (from the step's index, the last step sent and the walk's state; nil ends the walk),
    /// stops at the first step that differs, then removes the walk's records.
    private func send(walk: String, readBack: ReadBack = .afterEveryWrite, on run: inout LockstepRun,
                      next: (_ index: Int, _ last: WalkStep?, _ state: WalkState) -> WalkStep?) async -> Result {
        var state = WalkState()
        var result = Result()
        let base = run.slotCount
        var upcoming = next(0, nil, state)
        while let step = upcoming {
            var reading = readBack == .afterEveryWrite
            if !reading {
                // The step after this one, asked before this one runs: a replay's next step depends on its index alone.
                reading = next(result.steps.count + 1, step, state) == nil
            }
            let (observation, reads) = await execute(step, walk: walk, readingBack: reading, state: &state, run: &run)
            result.steps.append(step)
            result.requests += 1 + reads
            if !observation.differences.isEmpty {
                if result.difference == nil { result.difference = (result.steps.count - 1, observation) }
                if !followsBaseline { break }
            }
            upcoming = next(result.steps.count, step, state)
        }
        result.requests += await cleanUp(state, base: base, run: &run)
        return result
    }

    // MARK: - Choosing

    /// The next step from the model's state: create while there is nothing to act on, else a consumer of a record
    /// drawn from all of them (deleted and refused ones too), sometimes a reused unique value, sometimes the last step again.
    func choose(name: Int, after last: WalkStep?, state: WalkState, random: inout ModelRandom) -> WalkStep? {
        guard let collection = operations.collections.randomElement(using: &random) else { return nil }
        if let last, chance(0.12, &random), isRepeatable(last) {
            return WalkStep(contractID: last.contractID, kind: last.kind, name: name)
        }
        let records = state.records(in: collection.name)
        let create = collection.create.contractID
        if records.isEmpty || !collection.hasConsumers || chance(0.3, &random) {
            if !records.isEmpty, !collection.unique.isEmpty, chance(0.3, &random), let earlier = records.randomElement(using: &random) {
                return WalkStep(contractID: create, kind: .create(.reuse(record: earlier.name, upperCase: chance(0.3, &random))), name: name)
            }
            return WalkStep(contractID: create, kind: .create(.fresh), name: name)
        }
        let record = records.randomElement(using: &random)!.name
        var options: [WalkStep.Kind] = collection.reads.map { _ in WalkStep.Kind.read(record: record) }
        options += collection.lists.map { _ in WalkStep.Kind.list }
        if adminChecks { options += collection.deletes.map { _ in WalkStep.Kind.delete(record: record) } }
        let other = records.randomElement(using: &random)!.name
        let owner = chance(0.75, &random) ? record : other
        options += collection.attaches.map { _ in WalkStep.Kind.attach(record: record, secretOf: owner) }
        let presentation = WalkStep.Presentation.allCases.randomElement(using: &random) ?? .asSent
        options += collection.authenticates.map { _ in WalkStep.Kind.authenticate(record: record, presentation) }
        let ids = collection.reads + collection.lists + (adminChecks ? collection.deletes : []) + collection.attaches
            + collection.authenticates.map(\.contractID)
        guard !options.isEmpty else { return WalkStep(contractID: create, kind: .create(.fresh), name: name) }
        let pick = Int(random.next() % UInt64(options.count))
        return WalkStep(contractID: ids[pick], kind: options[pick], name: name)
    }

    private func isRepeatable(_ step: WalkStep) -> Bool {
        if case .delete = step.kind { return adminChecks }
        return true
    }

    private func chance(_ probability: Double, _ random: inout ModelRandom) -> Bool {
        Double(random.next() % 10_000) < probability * 10_000
    }

    // MARK: - Executing

    /// Renders `step` from the walk's state, sends it in lockstep and moves the state as the model answered; then,
    /// when `readingBack`, reads back what it wrote. Returns the observation and how many reads were sent.
    func execute(_ step: WalkStep, walk: String, readingBack: Bool = true, state: inout WalkState,
                 run: inout LockstepRun) async -> (CaseObservation, reads: Int) {
        let request = render(step, walk: walk, state: state, run: run)
        let observation = await run.execute(request)
        let modelStatus = observation.statuses.count == 3 ? observation.statuses[1] : 0
        let succeeded = (200..<300).contains(modelStatus)
        switch step.kind {
        case .create:
            var record = WalkState.Record(name: step.name, collection: collection(of: step)?.name ?? "", body: request.body.jsonObject ?? [:])
            record.created = succeeded
            // Following a recorded baseline, the baseline's answer alone makes the slot: recording, the first side is the
            // model; replaying, the target. Where the two differ (a known defect the model refuses), requiring every side
            // moved the recording's later requests and not the replay's, and the two fell out of step.
            let created = followsBaseline ? succeeded : observation.statuses.allSatisfy({ (200..<300).contains($0) })
            if created, observation.statuses.count == 3, let identity = collection(of: step)?.identity {
                let ids = observation.bodies.map { $0?[identity]?.stringValue ?? "" }
                if followsBaseline ? !ids[1].isEmpty : ids.allSatisfy({ !$0.isEmpty }) {
                    let secrets = observation.bodies.map { run.secret(in: $0, createdBy: request) ?? "" }
                    record.slot = run.slotCount
                    run.addSlot(ids: ids, secrets: secrets, label: "walk \(walk) #\(step.name)")
                }
            }
            state.add(record)
        case .delete(let name) where succeeded:
            state.update(name) { $0.deleted = true }
        case .attach(let name, _) where succeeded:
            state.update(name) { $0.hasFile = true }
        default:
            break
        }
        // Read after every write: what the step created or changed, and each list holding it.
        let written = followsBaseline ? succeeded
            : observation.differences.isEmpty && observation.statuses.count == 3 && observation.statuses.allSatisfy({ (200..<300).contains($0) })
        guard readingBack, written else { return (observation, 0) }
        let reads = readsAfter(step, record: state.record(step.record ?? step.name))
        let (read, sent) = await self.readingBack(reads, after: observation, run: &run)
        return (read, sent)
    }

    /// The request `step` sends, with this side-independent state: records by slot, unique values as the walk chose them.
    func render(_ step: WalkStep, walk: String, state: WalkState, run: LockstepRun) -> GeneratedRequest {
        guard let contract = contracts.contract(id: step.contractID) else {
            return GeneratedRequest(contractID: step.contractID, method: "GET", path: "/", label: step.display)
        }
        let collection = collection(of: step)
        var request = GeneratedRequest(contractID: contract.id, method: contract.method, path: contract.pathTemplate, label: step.display)
        request.keepsUniqueValues = true
        let target = step.record.flatMap { state.record($0) }
        if let parameter = contract.pathParameters.first?.name {
            let slot: Int? = target?.slot
            request.path = contract.pathTemplate.replacingOccurrences(of: "{\(parameter)}", with: slot.map { "{slot\($0)}" } ?? "{unknown}")
        }
        switch step.kind {
        case .create(let choice):
            var body = collection?.create.body ?? [:]
            let fields = collection?.unique ?? []
            // Reusing a record the walk no longer holds (shrinking removed its create) sends fresh values: the contract's
            // example value instead would meet what an earlier walk left on a long-lived server, and a shrunk walk would
            // reproduce a difference its own steps never caused.
            let earlier: JSONObject? = if case .reuse(let name, _) = choice { state.record(name)?.body } else { nil }
            if case .reuse(_, let upperCase) = choice, let earlier {
                for field in fields {
                    guard let text = earlier[field]?.stringValue else { continue }
                    body[field] = .string(upperCase ? text.uppercased() : text)
                    request.carriedValues.append(text)
                }
            } else {
                let values = UniqueStandIns(fields: Set(fields), runToken: "\(run.runToken)-w\(walk)-\(step.name)")
                for field in fields.sorted() {
                    guard let text = body[field]?.stringValue, !text.isEmpty else { continue }
                    let fresh = run.ledger.standIn(for: text, field: field, from: values)
                    body[field] = .string(fresh)
                    request.freshValues.append(fresh)
                }
            }
            request.body = .json(.object(body))
        case .read, .list:
            break
        case .delete:
            request.credentials = .adminToken
        case .attach(_, let secretOf):
            let owner = state.record(secretOf)?.slot
            let part = contract.request.parts.first { $0.kind == "file" }?.name ?? "file"
            request.body = .multipart([GeneratedPart(name: part, fileName: "photo.png", contentType: "image/png", data: SampleUploads.png)])
            let id: GeneratedRequest.IdentityValue = target?.slot.map { GeneratedRequest.IdentityValue.id(slot: $0) } ?? .text("")
            let password: GeneratedRequest.IdentityValue = owner.map { GeneratedRequest.IdentityValue.password(slot: $0) } ?? .text("000000")
            request.credentials = .basic(scheme: "Basic", id: id, password: password)
        case .authenticate(_, let presentation):
            var body = collection?.authenticates.first { $0.contractID == contract.id }?.body ?? [:]
            let declaration = contracts.state.declaration(for: contract.id)
            if let key = declaration?.key, let value = target?.body[key]?.stringValue {
                request.carriedValues.append(value)
                switch presentation {
                case .keyInUpperCase: body[key] = .string(value.uppercased())
                case .keyPadded: body[key] = .string("  \(value) ")
                default: body[key] = .string(value)
                }
            }
            if let credentials = declaration?.credentials, case .body(let name) = credentials.sent,
                let secret = target?.body[credentials.stored]?.stringValue ?? target?.body[name]?.stringValue {
                switch presentation {
                case .wrongSecret: body[name] = .string(secret + "x")
                case .secretPadded: body[name] = .string(" \(secret) ")
                default: body[name] = .string(secret)
                }
            }
            request.body = .json(.object(body))
        }
        return request
    }

    private func collection(of step: WalkStep) -> WalkOperations.Collection? {
        guard let name = contracts.state.declaration(for: step.contractID)?.collection else { return nil }
        return operations.collections.first { $0.name == name }
    }

    /// Removes the walk's records from every side (with the admin token), so the next walk, or the next replay of a
    /// shrinking one, starts from the same state; drops the walk's slots. Returns the requests sent.
    private func cleanUp(_ state: WalkState, base: Int, run: inout LockstepRun) async -> Int {
        var sent = 0
        if adminChecks {
            for record in state.records where record.slot != nil && !record.deleted {
                guard let slot = record.slot, let delete = operations.collections.first(where: { $0.name == record.collection })?.deletes.first,
                    let contract = contracts.contract(id: delete), let parameter = contract.pathParameters.first?.name
                else { continue }
                var request = GeneratedRequest(contractID: delete, method: contract.method,
                                               path: contract.pathTemplate.replacingOccurrences(of: "{\(parameter)}", with: "{slot\(slot)}"),
                                               label: "clean up", credentials: .adminToken)
                request.keepsUniqueValues = true
                await run.sendQuietly(request)
                sent += 1
            }
        }
        run.keepSlots(base)
        return sent
    }
}

extension GeneratedRequest.Body {
    /// The JSON object sent, if the body is one.
    var jsonObject: JSONObject? {
        if case .json(let json) = self { return json.objectValue }
        return nil
    }
}
