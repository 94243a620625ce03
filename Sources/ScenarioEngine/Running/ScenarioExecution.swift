import ContractKit
import ContractModel
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The mutable state of one scenario while it runs.
struct ScenarioExecution {
    let scenario: Scenario
    let target: any ScenarioTarget
    let driver: any ClientDriver
    var session: (any ClientSession)?
    var stepsRun = 0
    /// What the user has typed so far, for `inputsIntact`.
    var inputs: [String: String]
    /// Values captured by http steps, for `${name}` placeholders.
    var variables: [String: String] = [:]
    /// The last journal sequence number already attributed to a step.
    var cursor = 0
    let http: RawHTTPClient
    /// The known server defects that excuse an http step's mismatch (run --target only).
    var knownDefects = KnownDefectMatcher([])
    /// The listed defects the server showed, step by step.
    var sightings: [KnownDefect] = []
    /// Checks that ran weaker than they could, for the report.
    var notes: [String] = []
    /// The stderr tail of a client that failed to start (there is no session to ask then).
    var startStderr: String?
    /// Listed defects a step set off although the server answered as documented.
    var notSeen: [KnownDefect] = []
    /// Every failed step, in order; the first is the headline.
    var failures: [ScenarioFailure] = []
    /// Where the seeds conflict, the reading the client took, step by step, for the report.
    var readings: [String] = []
    /// Set when the scenario cannot run with this driver (an optional action it answered `unsupported`).
    var skipReason: String?
    /// Whether the client's device is offline (`deviceOffline` until `deviceOnline`).
    var deviceOffline = false
    /// The contracts describing the target's answers, for naming the unusual values of an answer the client did not present.
    var contracts: ContractSet?
    /// Set when the app stopped the user earlier in the flow, in a way the seeds allow: the later steps do not apply.
    var finishedEarly = false
    /// Steps where the client timed out with no timing fault planned (SlowMachineRetry).
    var unplannedTimeouts: [Int] = []
    /// The announcement the details screen was last asked to load, for the identity check of later details steps.
    var detailsID: String?
    /// The client profile whose rules judge the steps.
    let profile: ClientProfile
    /// The operations the profile's flow goes through, as the target's contracts declare them.
    var operations: FlowOperations = .bundled(for: .bundledDefault)

    init(scenario: Scenario, target: any ScenarioTarget, driver: any ClientDriver, profile: ClientProfile = .bundledDefault) {
        self.scenario = scenario
        self.target = target
        self.driver = driver
        self.profile = profile
        self.inputs = scenario.report.inputs(of: profile.flow.formFields)
        self.http = RawHTTPClient(timeout: max(10, Double(scenario.client.stepTimeoutMs) / 1000))
    }

    /// Extra time the engine gives a driver's own start deadline before it gives up on it.
    static let openGraceMs = 2000

    /// Runs every step, checking every expectation; stops early only where an outcome makes the later steps meaningless.
    mutating func run() async {
        cursor = await target.journal().last?.sequence ?? 0
        for step in scenario.steps {
            stepsRun += 1
            if var failure = await run(step) {
                let why = Self.stopReason(failure)
                if let why, step.number < scenario.steps.count { failure.stoppedEarly = why }
                failures.append(failure)
                if why != nil { return }
            }
            if skipReason != nil || finishedEarly { return }
        }
    }

    /// Why the steps after a failed one cannot be checked meaningfully, or `nil` when they still can.
    static func stopReason(_ failure: ScenarioFailure) -> String? {
        let subjects = Set(failure.mismatches.map(\.subject))
        if !subjects.isDisjoint(with: ["client", "client answer", "http answer", "fault rules", "earlier stop"]) {
            return "the client or the target did not get through this step, so the later steps would run on a different state"
        }
        if let outcome = failure.mismatches.first(where: { $0.subject == "outcome" }) {
            return "the step ended in \(outcome.actual.split(separator: " ").first.map(String.init) ?? outcome.actual) where \(outcome.expected) was expected, so the later steps (which build on that outcome) would check another flow"
        }
        if subjects.contains(where: { $0.hasPrefix("capture") }) {
            return "a value the later steps use could not be captured"
        }
        return nil
    }

    /// Judges the app stopping the user at an earlier step of the flow against the seeds: a failure, or `nil` when allowed.
    mutating func judge(_ stop: EarlierStop, at step: Step, records: [JournalRecord]) async -> ScenarioFailure? {
        switch EarlierStopRule.judge(stop, report: scenario.report, flow: profile.flow) {
        case .allowed(let reading):
            readings.append("step \(step.number) (\(step.action.name)): \(reading)")
            finishedEarly = true
            return nil
        case .contradicted(let explanation):
            let mismatch = Mismatch("earlier stop", expected: "the report to reach \(step.action.name)", actual: "a stop at step \(stop.step)", explanation: explanation)
            return await failure(step, [mismatch], records: records)
        }
    }

    /// Turns a driver's declining answer (an unsupported optional action, an earlier stop) into the scenario's verdict.
    mutating func declined(_ reason: DriverError.Reason, at step: Step, records: [JournalRecord]) async -> ScenarioFailure? {
        switch reason {
        case .unsupported(let action):
            guard ClientAction.optionalNames.contains(action), scenario.tags.contains("optional-protocol") else {
                return await failure(step, [Mismatch("client answer", expected: "an answer to \"\(action)\", which every driver must support", actual: "unsupported")], records: records)
            }
            skipReason = "the client's driver does not support the optional action \"\(action)\" (scenario tagged optional-protocol)"
            return nil
        case .stoppedEarlier(let stop):
            return await judge(stop, at: step, records: records)
        }
    }

    func failure(_ step: Step, _ mismatches: [Mismatch], records: [JournalRecord]) async -> ScenarioFailure {
        var excerpt = records.map(\.line)
        if excerpt.isEmpty {
            let all = await target.journal()
            excerpt = all.isEmpty ? ["(no requests received)"] : ["(no requests during this step; earlier ones:)"] + all.suffix(10).map(\.line)
        }
        let stderr = await session?.diagnostics() ?? startStderr
        return ScenarioFailure(stepNumber: step.number, action: step.action.name, pointer: step.pointer, mismatches: mismatches,
                               because: step.expect.because, journalExcerpt: excerpt, clientStderr: stderr)
    }

    mutating func run(_ step: Step) async -> ScenarioFailure? {
        var mismatches: [Mismatch] = []
        let checker = ExpectationChecker(step: step, deviceOffline: deviceOffline, profile: profile, operations: operations)
        switch step.action {
        case .client(var action):
            if case .loadDetails(let id) = action {
                do {
                    action = .loadDetails(id: try RawHTTPClient.substitute(id, variables))
                } catch {
                    return await failure(step, [Mismatch("record id", expected: "a known placeholder", actual: error.message)], records: [])
                }
            }
            if session == nil {
                var opening = ClientContext(baseURL: target.baseURL, settings: scenario.client, report: scenario.report, scenarioName: scenario.name)
                opening.profile = profile.name
                opening.flow = profile.flow.name
                let context = opening
                let driver = self.driver
                // A safety net only: drivers bound their own start (a process driver closes a client that never gets ready),
                // so the grace keeps the two deadlines from racing.
                let openDeadline = scenario.client.stepTimeoutMs + Self.openGraceMs
                switch await StepDeadline.run(milliseconds: openDeadline, { () throws(DriverError) in try await driver.open(context) }) {
                case .success(let s)?: session = s
                case .failure(let error)?:
                    startStderr = error.stderrTail
                    if let reason = error.reason { return await declined(reason, at: step, records: await newRecords()) }
                    return await failure(step, [Mismatch("client", expected: "a client ready to run the scenario", actual: error.message)], records: [])
                case nil:
                    return await failure(step, [Mismatch("client", expected: "a client ready within \(openDeadline) ms", actual: "no answer")], records: [])
                }
            }
            guard let session else { return nil }
            let performed = action
            let outcome = await StepDeadline.run(milliseconds: scenario.client.stepTimeoutMs, { () throws(DriverError) in try await session.perform(performed) })
            let records = await newRecords()
            let timedOut: Bool = switch outcome {
            case .success(let observation)?: SlowMachineRetry.isTimeout(observation.cause)
            case nil: true
            default: false
            }
            if timedOut, SlowMachineRetry.unplanned(stepRecords: records) { unplannedTimeouts.append(step.number) }
            if case .loadDetails(let id) = action { detailsID = id }
            switch outcome {
            case .success(let observation)?:
                mismatches += DetailsIdentity.check(checker.check(observation, expectedInputs: inputs), requested: detailsID, stepRecords: records,
                                                    operations: operations)
                if step.expect.passwordOpensPhoto == true, let password = observation.managementPassword {
                    mismatches += PasswordPhotoCheck.check(password: password, journal: await target.journal(), operations: operations)
                }
                notes += checker.weakerChecks(observation).map { "step \(step.number) (\(step.action.name)): \($0)" }
                readings += checker.readings(observation).map { "step \(step.number) (\(step.action.name)): \($0)" }
                if action == .deviceOffline || action == .deviceOnline { deviceOffline = action == .deviceOffline }
            case .failure(let error)? where error.reason != nil:
                if let reason = error.reason { return await declined(reason, at: step, records: records) }
            case .failure(let error)?:
                mismatches.append(Mismatch("client answer", expected: "an answer to \"\(action.name)\"", actual: error.message))
            case nil:
                mismatches.append(Mismatch(
                    "client answer", expected: "an answer within \(scenario.client.stepTimeoutMs) ms",
                    actual: "none: the client hung although its request timeout is \(scenario.client.requestTimeoutMs) ms; a client that does not honour its timeout leaves the user waiting forever on a stalled server"))
            }
            if case .editField(let field, let value) = action {
                // With several accepted values (e.g. a rejected over-long reward kept or cut), the one the client chose is what it must keep.
                let accepted = step.expect.inputs?[field]
                let shown: String?
                if case .success(let observation)? = outcome { shown = observation.inputs?[field] } else { shown = nil }
                inputs[field] = shown.flatMap { accepted?.contains($0) == true ? $0 : nil } ?? accepted?.first ?? value
            }
            // What the client sent explains what it then showed (a wrong body, an extra call), so it comes first; a
            // request it never sent is explained by what it showed instead (e.g. it refused a valid input).
            let journal = await checkJournal(checker, records)
            let body = journal.filter { $0.subject.hasPrefix("sent") }
            let calls = journal.filter { !$0.subject.hasPrefix("sent") }
            mismatches = records.isEmpty ? body + mismatches + calls : body + calls + mismatches
            if !mismatches.isEmpty {
                var failed = await failure(step, mismatches, records: records)
                if case .success(let observation)? = outcome, let contracts {
                    failed.unreadAnswer = UnreadAnswer.find(in: records, observation: observation, mismatches: mismatches, contracts: contracts)
                }
                return failed
            }
        case .setFaults(let rules):
            do {
                try await target.replaceFaults(rules)
            } catch {
                return await failure(step, [Mismatch("fault rules", expected: "replaced", actual: error.message)], records: [])
            }
            let records = await newRecords()
            mismatches += await checkJournal(checker, records)
            if !mismatches.isEmpty { return await failure(step, mismatches, records: records) }
        case .advanceClock(let seconds):
            await target.advanceClock(by: seconds)
            let records = await newRecords()
            mismatches += await checkJournal(checker, records)
            if !mismatches.isEmpty { return await failure(step, mismatches, records: records) }
        case .wait(let ms):
            try? await Task.sleep(for: .milliseconds(ms))
            let records = await newRecords()
            mismatches += await checkJournal(checker, records)
            if !mismatches.isEmpty { return await failure(step, mismatches, records: records) }
        case .http(let request):
            let answer: HTTPAnswer
            var sent: URLRequest?
            do {
                let built = try http.build(request, to: target.baseURL, variables: variables)
                sent = built
                answer = try await http.perform(built)
            } catch {
                let records = await newRecords()
                return await failure(step, [Mismatch("http answer", expected: "an HTTP answer", actual: error.description)], records: records)
            }
            let records = await newRecords()
            mismatches += checker.check(answer)
            if !mismatches.isEmpty, let sent, let defect = KnownDefectSighting.defect(for: sent, answer: answer, in: knownDefects) {
                // The server got this step wrong exactly as a listed defect says: reported, not failed.
                sightings.append(defect)
                mismatches = []
            } else if mismatches.isEmpty, let sent, let defect = KnownDefectSighting.triggered(by: sent, in: knownDefects) {
                notSeen.append(defect)
            }
            mismatches += await checkJournal(checker, records)
            if let body = try? JSONValue(parsing: answer.body) {
                for (name, pointer) in request.capture {
                    if let value = ExpectationChecker.resolve(pointer, in: body) {
                        variables[name] = value.stringValue ?? value.serialized()
                    } else {
                        mismatches.append(Mismatch("capture \(name)", expected: "a value at \(pointer) in the answer", actual: "absent"))
                    }
                }
            } else if !request.capture.isEmpty {
                mismatches.append(Mismatch("capture", expected: "a JSON answer to capture from", actual: ExpectationChecker.excerpt(String(decoding: answer.body, as: UTF8.self))))
            }
            if !mismatches.isEmpty { return await failure(step, mismatches, records: records) }
        }
        return nil
    }

    /// Journal records not yet attributed to a step; advances the cursor.
    mutating func newRecords() async -> [JournalRecord] {
        let all = await target.journal()
        let fresh = all.filter { $0.sequence > cursor }
        if let last = fresh.last { cursor = last.sequence }
        return fresh
    }

    mutating func checkJournal(_ checker: ExpectationChecker, _ records: [JournalRecord]) async -> [Mismatch] {
        guard let journal = checker.step.expect.journal else { return [] }
        var existing: Set<String> = []
        if journal.authUserIsCreatedId {
            for record in records where operations.isUpload(record.contract) {
                guard let id = operations.uploadTarget(record.path, contract: record.contract) else { continue }
                if record.status == 201 && record.fault == nil {
                    existing.insert(id)
                } else if await target.recordExists(id, readPath: operations.readPath(of: id)) ?? false {
                    existing.insert(id)
                }
            }
        }
        let count = journal.announcements != nil ? await target.recordCount() : nil
        let sent = SentReportCheck(report: scenario.report, inputs: inputs, profile: profile)
        return checker.checkJournal(stepRecords: records, announcementCount: count, existingIDs: existing, sent: sent)
    }
}
