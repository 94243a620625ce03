import ContractKit
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

    init(scenario: Scenario, target: any ScenarioTarget, driver: any ClientDriver) {
        self.scenario = scenario
        self.target = target
        self.driver = driver
        self.inputs = scenario.report.contactInputs
        self.http = RawHTTPClient(timeout: max(10, Double(scenario.client.stepTimeoutMs) / 1000))
    }

    /// Extra time the engine gives a driver's own start deadline before it gives up on it.
    static let openGraceMs = 2000

    mutating func run() async -> ScenarioFailure? {
        cursor = await target.journal().last?.sequence ?? 0
        for step in scenario.steps {
            stepsRun += 1
            if let failure = await run(step) { return failure }
        }
        return nil
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
        let checker = ExpectationChecker(step: step)
        switch step.action {
        case .client(var action):
            if case .loadDetails(let id) = action {
                do {
                    action = .loadDetails(id: try RawHTTPClient.substitute(id, variables))
                } catch {
                    return await failure(step, [Mismatch("announcement id", expected: "a known placeholder", actual: error.message)], records: [])
                }
            }
            if session == nil {
                let context = ClientContext(baseURL: target.baseURL, settings: scenario.client, report: scenario.report, scenarioName: scenario.name)
                let driver = self.driver
                // A safety net only: drivers bound their own start (a process driver closes a client that never gets ready),
                // so the grace keeps the two deadlines from racing.
                let openDeadline = scenario.client.stepTimeoutMs + Self.openGraceMs
                switch await StepDeadline.run(milliseconds: openDeadline, { () throws(DriverError) in try await driver.open(context) }) {
                case .success(let s)?: session = s
                case .failure(let error)?:
                    startStderr = error.stderrTail
                    return await failure(step, [Mismatch("client", expected: "a client ready to run the scenario", actual: error.message)], records: [])
                case nil:
                    return await failure(step, [Mismatch("client", expected: "a client ready within \(openDeadline) ms", actual: "no answer")], records: [])
                }
            }
            guard let session else { return nil }
            let performed = action
            let outcome = await StepDeadline.run(milliseconds: scenario.client.stepTimeoutMs, { () throws(DriverError) in try await session.perform(performed) })
            let records = await newRecords()
            switch outcome {
            case .success(let observation)?:
                mismatches += checker.check(observation, expectedInputs: inputs)
                if step.expect.passwordOpensPhoto == true, let password = observation.managementPassword {
                    mismatches += PasswordPhotoCheck.check(password: password, journal: await target.journal())
                }
                notes += checker.weakerChecks(observation).map { "step \(step.number) (\(step.action.name)): \($0)" }
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
            mismatches += await checkJournal(checker, records)
            if !mismatches.isEmpty { return await failure(step, mismatches, records: records) }
        case .setFaults(let rules):
            do {
                try await target.replaceFaults(rules)
            } catch {
                return await failure(step, [Mismatch("fault rules", expected: "replaced", actual: error.message)], records: [])
            }
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
            for record in records where record.contract == "uploadPhoto" {
                guard let id = ExpectationChecker.announcementID(inPhotoPath: record.path) else { continue }
                if record.status == 201 && record.fault == nil {
                    existing.insert(id)
                } else if await target.announcementExists(id) ?? false {
                    existing.insert(id)
                }
            }
        }
        let count = journal.announcements != nil ? await target.announcementCount() : nil
        let sent = SentReportCheck(report: scenario.report, inputs: inputs)
        return checker.checkJournal(stepRecords: records, announcementCount: count, existingIDs: existing, sent: sent)
    }
}
