import ContractKit
import ContractModel
import Foundation
import Logging
import MockBackend

/// `verify`'s exploration: generated requests sent to the server and to an embedded model of the same contracts in
/// lockstep, the differing ones shrunk and grouped by rule.
public struct RequestExplorer: Sendable {
    /// How much to explore and how to compare.
    public struct Options: Sendable {
        /// Reproduces the generated requests (the report prints it).
        public var seed: UInt64
        /// The most generated requests; nil with no `duration` means `defaultCases`.
        public var cases: Int?
        /// Stop generating after this long (shrinking and clean-up come on top).
        public var duration: Duration?
        /// Leave `error.message` out of the comparison.
        public var ignoreMessages = false
        /// The admin token: DELETE cases are sent and the run's announcements are deleted at the end.
        public var adminToken: String?
        /// How long to wait for each answer.
        public var timeout: Duration = .seconds(30)
        /// Walk the declared operations after the systematic cases (`WalkRunner`): sequences only show there.
        public var walks = true
        /// Also send files on both sides of file limits over a mebibyte (slow; off by default, and those limits are then
        /// listed as not exercised).
        public var heavyFiles = false
        /// Replay this saved walk instead of exploring: no systematic cases, no random ones, no shrinking.
        public var replayWalk: WalkCase?
        /// A server the target is compared with instead of the model (`verify --baseline`): the version run today.
        /// Every difference is then a failure where a contract states the aspect, else a change (a note, with header
        /// values and token claims compared too).
        public var baseline: URL?
        /// A recording of the version run today to compare the target with instead (`verify --baseline FILE`), made by
        /// `recordBaseline` with the same seed and budget. Nothing is shrunk: a shrunk walk's requests were never recorded.
        public var baselineRecording: BaselineRecording?
        /// Record the target's answers into this recording instead of judging them (`verify --record-baseline FILE`):
        /// the target takes the baseline's place and the model the target's, and nothing is shrunk, so a later replay
        /// asks for the same requests.
        public var recordBaseline: BaselineRecording?

        /// Whether the target is compared with a baseline (a live one or a recording) rather than the model.
        var comparesWithBaseline: Bool { baseline != nil || baselineRecording != nil }
        /// Whether differences are shrunk: never with a recording, whose answers exist only for the requests it saw.
        var shrinks: Bool { baselineRecording == nil && recordBaseline == nil }

        /// Options with this seed and the default budget.
        public init(seed: UInt64) {
            self.seed = seed
        }
    }

    /// The budget without `--cases` or `--time`: every systematic case, the walk that fills the lists and some random
    /// walks and pairs, against a local server in a few seconds.
    public static let defaultCases = 1500

    /// The contracts the model runs and the requests come from.
    public let contracts: ContractSet
    /// The server explored.
    public let target: URL
    /// The budget and comparison settings.
    public let options: Options

    /// An explorer of `target` against `contracts`.
    public init(contracts: ContractSet, target: URL, options: Options) {
        self.contracts = contracts
        self.target = target
        self.options = options
    }

    /// Runs the exploration; never throws: a model that cannot start or a server that cannot create is `setupFailure`.
    public func explore() async -> ExplorationOutcome {
        let clock = ContinuousClock()
        let started = clock.now
        func failed(_ reason: String, created: [String] = []) -> ExplorationOutcome {
            ExplorationOutcome(seed: options.seed, casesSent: 0, systematicCases: 0, shrinkRequests: 0, groups: [], headersAdded: [], headersRemoved: [],
                               createdOnServer: created, deletedOnServer: [], notDeleted: [], setupFailure: reason, duration: clock.now - started)
        }
        let model: InProcessServer
        let modelWithDefects: InProcessServer
        do {
            (model, modelWithDefects) = (try makeModel(knownDefects: false), try makeModel(knownDefects: true))
        } catch {
            return failed("the contracts' model cannot be built: \(error)")
        }
        if let baseline = options.baseline {
            return await explore(model: .http(baseline), modelWithDefects: .inProcess(modelWithDefects), started: started, clock: clock)
        }
        if let recording = options.baselineRecording {
            return await explore(model: .replaying(recording), modelWithDefects: .inProcess(modelWithDefects), started: started, clock: clock)
        }
        if let recording = options.recordBaseline {
            // The target is the baseline being recorded; the model stands where a candidate will.
            var run = LockstepRun(server: .inProcess(model), model: .recording(target, recording), modelWithDefects: .inProcess(modelWithDefects),
                                  contracts: contracts, timeout: options.timeout, adminToken: options.adminToken,
                                  ignoreMessages: options.ignoreMessages, seed: options.seed, baseline: true)
            return await explore(&run, started: started, clock: clock)
        }
        return await explore(model: .inProcess(model), modelWithDefects: .inProcess(modelWithDefects), started: started, clock: clock)
    }

    /// Explores with models already listening at `model` and `modelWithDefects` (a test's model whose answers record
    /// assumptions, for one).
    func explore(model: URL, modelWithDefects: URL, started: ContinuousClock.Instant = ContinuousClock.now,
                 clock: ContinuousClock = ContinuousClock()) async -> ExplorationOutcome {
        await explore(model: .http(model), modelWithDefects: .http(modelWithDefects), started: started, clock: clock)
    }

    private func explore(model: ExplorationSide.Transport, modelWithDefects: ExplorationSide.Transport, started: ContinuousClock.Instant,
                         clock: ContinuousClock) async -> ExplorationOutcome {
        var run = LockstepRun(server: .http(target), model: model, modelWithDefects: modelWithDefects, contracts: contracts,
                              timeout: options.timeout, adminToken: options.adminToken, ignoreMessages: options.ignoreMessages, seed: options.seed,
                              baseline: options.comparesWithBaseline && !model.isInProcess)
        return await explore(&run, started: started, clock: clock)
    }

    private func explore(_ run: inout LockstepRun, started: ContinuousClock.Instant, clock: ContinuousClock) async -> ExplorationOutcome {
        let generator = RequestGenerator(contracts: contracts, adminChecks: options.adminToken != nil, heavyFiles: options.heavyFiles)
        guard let slotRequests = generator.slotRequests() else {
            return ExplorationOutcome(seed: options.seed, casesSent: 0, systematicCases: 0, shrinkRequests: 0, groups: [], headersAdded: [], headersRemoved: [],
                                      createdOnServer: [], deletedOnServer: [], notDeleted: [],
                                      setupFailure: "no contract creates records with a JSON body", duration: clock.now - started)
        }
        if let reason = await run.createSlots(slotRequests) {
            let deleted = options.adminToken != nil ? await run.delete(run.createdOnServer) : []
            return ExplorationOutcome(seed: options.seed, casesSent: 0, systematicCases: 0, shrinkRequests: 0, groups: [], headersAdded: [], headersRemoved: [],
                                      createdOnServer: run.createdOnServer, deletedOnServer: [], notDeleted: deleted,
                                      setupFailure: reason, duration: clock.now - started)
        }
        let baselineNoise = await run.measureBaselineNoise()
        let systematic = generator.systematicCases()
        let limit = options.cases ?? (options.duration == nil ? Self.defaultCases : Int.max)
        let deadline = options.duration.map { started + $0 }
        var random = ModelRandom(seed: options.seed)
        var sent = 0
        var groups: [String: (first: CaseObservation, count: Int)] = [:]
        var order: [String] = []
        var added: [String: Int] = [:]
        var removed: [String: Int] = [:]
        var exercised: [String: Int] = [:]
        var walker = WalkRunner(operations: WalkOperations(contracts: contracts, bodies: generator.bodies), contracts: contracts,
                                adminChecks: options.adminToken != nil)
        walker.followsBaseline = !options.shrinks
        var walks: [String: [WalkStep]] = [:]
        var walkCount = 0
        var walkSteps = 0
        var pairs = 0
        var walking = options.walks
        func note(_ observation: CaseObservation, walk: [WalkStep]? = nil) {
            guard !observation.differences.isEmpty else { return }
            let key = observation.signature
            if groups[key] == nil {
                order.append(key)
                if let walk { walks[key] = walk }
            }
            groups[key, default: (observation, 0)].count += 1
        }
        if let replay = options.replayWalk {
            let result = await walker.replay(replay.steps, walk: "replay", on: &run)
            walkCount = 1
            walkSteps = result.steps.count
            sent = result.steps.count
            if let difference = result.difference { note(difference.observation, walk: Array(result.steps.prefix(difference.step + 1))) }
        }
        while options.replayWalk == nil, sent < limit, deadline.map({ clock.now < $0 }) ?? true {
            // After the systematic cases, walks take about three quarters of the budget and random pairs the rest; the
            // first walk fills the lists past any page limit.
            if sent >= systematic.count, walking, walkSteps <= 3 * pairs || walkCount == 0 {
                let fill = walkCount == 0 ? walker.fillWalk() : []
                let room = limit - sent
                let result: WalkRunner.Result
                if fill.isEmpty {
                    let length = 6 + Int(random.next() % 20)
                    result = await walker.generate(walk: walkCount, length: min(length, room), random: &random, on: &run)
                } else {
                    result = await walker.replay(Array(fill.prefix(room)), walk: "\(walkCount)", on: &run)
                }
                walkCount += 1
                walkSteps += result.steps.count
                sent += result.steps.count
                if let difference = result.difference { note(difference.observation, walk: Array(result.steps.prefix(difference.step + 1))) }
                if result.steps.isEmpty { walking = false }
                continue
            }
            let request: GeneratedRequest
            if sent < systematic.count {
                request = systematic[sent]
            } else if let next = generator.randomCase(using: &random) {
                request = next
                pairs += 1
            } else {
                break
            }
            sent += 1
            for rule in request.exercises { exercised[rule, default: 0] += 1 }
            let observation = await run.execute(request)
            for name in observation.headersAdded { added[name, default: 0] += 1 }
            for name in observation.headersRemoved { removed[name, default: 0] += 1 }
            note(observation)
        }
        var result: [DifferenceGroup] = []
        var shrinkRequests = 0
        for key in order {
            guard let (first, count) = groups[key] else { continue }
            var minimal = first.request
            var tries = 0
            var observed = first
            var walk: [String] = []
            var walkCaseSteps: [WalkStep] = []
            if let steps = walks[key], options.replayWalk != nil || !options.shrinks {
                walk = steps.map(\.display)
                walkCaseSteps = steps
            } else if let steps = walks[key] {
                var attempt = 0
                let shrunk = await WalkShrinker().shrink(steps, signature: key) { candidate in
                    attempt += 1
                    let replayed = await walker.replay(candidate, walk: "s\(attempt)", readBack: .afterLastStep, on: &run)
                    return (replayed.difference?.observation.signature, replayed.difference?.step, replayed.requests)
                }
                shrinkRequests += shrunk.requests
                tries = shrunk.requests
                let again = await walker.replay(shrunk.steps, walk: "final", on: &run)
                if let difference = again.difference, difference.observation.signature == key { observed = difference.observation }
                minimal = observed.request
                walk = shrunk.steps.map(\.display)
                walkCaseSteps = shrunk.steps
                // The read that differed follows the last write; the report shows it as the walk's end.
                if let read = observed.readBack, let last = shrunk.steps.last {
                    walk.append("then \(read.label) after #\(last.name) (\(read.route))")
                }
            } else if first.knownDefect == nil, options.shrinks {
                let shrunk = await RequestShrinker().shrink(first.request, signature: key) { candidate in
                    let seen = await run.execute(candidate)
                    return seen.differences.isEmpty ? nil : seen.signature
                }
                (minimal, tries) = shrunk
                shrinkRequests += tries
                if tries > 0 {
                    let again = await run.execute(minimal)
                    if again.signature == key { observed = again }
                }
            }
            var group = DifferenceGroup(
                route: first.route, rule: walk.isEmpty ? Self.rule(of: minimal) : "after a walk of \(walk.count) step(s)",
                model: observed.modelSummary, server: observed.serverSummary,
                differences: observed.differences, count: count, minimalRequest: observed.sent.display, firstRequest: first.sent.display,
                knownDefect: first.knownDefect, verdict: observed.verdict, shrinkTries: tries)
            group.walk = walk
            if options.comparesWithBaseline { group.oracle = "baseline" }
            if !walkCaseSteps.isEmpty {
                group.walkCase = WalkCase(route: first.route, seed: options.seed, model: observed.modelSummary,
                                          server: observed.serverSummary, steps: walkCaseSteps)
            }
            result.append(group)
        }
        let created = run.createdOnServer
        var deleted: [String] = []
        var notDeleted: [String] = []
        if options.adminToken != nil {
            notDeleted = await run.delete(created)
            deleted = created.filter { id in !notDeleted.contains { $0.hasPrefix(id) } }
        }
        // Failures first, then notes, then known defects; the rule most generated requests ran into first within each.
        result.sort { ($0.rank, -$0.count) < ($1.rank, -$1.count) }
        var outcome = ExplorationOutcome(
            seed: options.seed, casesSent: sent, systematicCases: systematic.count, shrinkRequests: shrinkRequests, groups: result,
            headersAdded: added.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            headersRemoved: removed.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            createdOnServer: created, deletedOnServer: deleted, notDeleted: notDeleted, setupFailure: nil, duration: clock.now - started)
        outcome.statedHeaders = contracts.service.headers.map { $0.name.lowercased() }
        outcome.baselineNoise = baselineNoise
        if options.comparesWithBaseline { outcome.oracle = "baseline" }
        outcome.walks = walkCount
        outcome.walkSteps = walkSteps
        outcome.coverage = generator.statedRules.map { RuleCoverage(rule: $0, cases: exercised[$0.id] ?? 0) }
        return outcome
    }

    private func makeModel(knownDefects: Bool) throws(ModelRules.Missing) -> InProcessServer {
        // Unseeded: two seeded models (or a server started with the same seed) would hand out the same ids, and a
        // model that created one announcement fewer would then reuse an id the run already labelled.
        // The model is the oracle; checking its own answers against the contracts would only slow every case down.
        var configuration = ModelBackend.Configuration(contracts: contracts, seed: nil, adminToken: options.adminToken ?? contracts.service.adminTokenOnLoopback,
                                                       checkResponses: false)
        configuration.storeMaxBytes = ContractMock.Options.defaultStoreMaxBytes
        if knownDefects { configuration.knownDefects = contracts.knownDefects }
        var logger = Logger(label: "spotcheck.verify.model")
        logger.logLevel = .critical
        // What the model assumed decides failure or note, so its answers say it.
        return InProcessServer(backend: try ModelBackend(configuration: configuration, logger: logger), sendsAssumptions: true)
    }

    /// What a (shrunk) request does, for the group's headline: the JSON keys it changes from the valid base body, and
    /// the optional keys it keeps, or the generated case's label.
    static func rule(of request: GeneratedRequest) -> String {
        guard case .json(.object(let body)) = request.body, let base = request.baseBody else { return request.label }
        // A case that shrank back to the valid body differs on any create: its label would name a value it no longer sends.
        if body == base, request.contractID != nil { return "the valid body" }
        var changed: [String] = []
        var kept: [String] = []
        for (key, value) in body {
            if base[key] != value {
                changed.append("\(key) \(FieldVariants.label(value))")
            } else if !request.requiredKeys.contains(key) {
                kept.append("a valid \(key)")
            }
        }
        let dropped = base.keys.filter { body[$0] == nil }
        if dropped.count > 2 {
            changed.append("\(dropped.count) of the valid body's keys left out")
        } else {
            changed += dropped.map { "no \($0)" }
        }
        if changed.isEmpty { return request.label }
        return changed.joined(separator: " and ") + (kept.isEmpty ? "" : " with " + kept.joined(separator: " and "))
    }
}
