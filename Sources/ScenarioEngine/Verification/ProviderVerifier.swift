import ContractKit
import ContractModel
import Foundation
import MockBackend

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends a verification plan to a server and reports, per check, how its answers differ from the contracts.
public struct ProviderVerifier: Sendable {
    /// The contracts to verify against.
    public let contracts: ContractSet
    /// The server's base URL, e.g. `http://localhost:3000`.
    public let target: URL
    /// How long to wait for each answer.
    public let timeout: TimeInterval
    /// The known server defects; by default the contract set's `known-defects.json`.
    public var knownDefects: KnownDefectMatcher
    /// Leave `error.message` unchecked (servers that localise).
    public var ignoreMessages = false
    /// The admin credential sent on checks that need it (DELETE).
    public var adminToken: String?
    /// Fail the run when a listed known defect was not seen.
    public var strict = false
    /// A `format` an answer breaks is a note, not a failure (`verify --formats lenient`, for servers whose clients do not
    /// decode by it).
    public var lenientFormats = false

    /// A verifier of `target` against `contracts`.
    public init(contracts: ContractSet, target: URL, timeout: TimeInterval = 30) {
        self.contracts = contracts
        self.target = target
        self.timeout = timeout
        self.knownDefects = KnownDefectMatcher(contracts.knownDefects)
    }

    /// The outcome of a verification: one result per check, and the announcements the run created.
    public struct Outcome: Sendable {
        /// One result per check, in plan order, in the scenario engine's report shape.
        public let report: RunReport
        /// The ids of the announcements this run created on the server (it creates nothing else).
        public let createdRecords: [String]
    }

    /// Runs `plan` in order against the target.
    public func verify(_ plan: [VerificationCheck]) async -> Outcome {
        let clock = ContinuousClock()
        let started = clock.now
        var state = VerificationState(unique: UniqueStandIns(contracts: contracts))
        var results: [ScenarioResult] = []
        var unseen: [KnownDefect] = []
        // A service-wide entry covers several checks: it is "no longer seen" only when none of them showed it.
        var seen: Set<String> = []
        let client = ExactHTTPClient(timeout: .milliseconds(Int(timeout * 1000)))
        // Checks whose documented success came back, so a conflict that repeats one can be provoked.
        var succeeded: Set<String> = []
        // Per contract the checks no request could be built for: reported once as not reachable, not once per example.
        var unreachable: [(contractID: String, file: String, reason: String, examples: [String])] = []
        let stateless = !contracts.contracts.contains { $0.source["x-state"] != nil }
        // Whether a record was made for the checks that need one's credentials (at most once per run).
        var triedRecord = false
        for check in plan {
            let checkStarted = clock.now
            var result = ScenarioResult(name: check.name, file: check.file, tags: [check.contractID], status: .passed, duration: .zero)
            if let reason = check.skipReason {
                result.status = .skipped
                result.skipReason = reason
            } else if let repeated = check.recipe.repeats, !succeeded.contains(repeated) {
                result.status = .skipped
                result.skipReason = "repeats \(repeated), whose documented success the server did not give"
            } else {
                do throws(VerificationError) {
                    let builder = RequestBuilder(target: target, timeout: timeout, adminToken: adminToken)
                    for setUp in check.recipe.before {
                        // Its answer is not judged: a register that finds the account already there serves the login as well.
                        if let request = try? builder.build(setUp, state: state) { _ = try? await client.send(request) }
                    }
                    let contract = contracts.contract(id: check.contractID)
                    if stateless, state.id == nil, [.basicCreated, .basicWrongPassword, .basicUnknownAnnouncement].contains(check.recipe.credentials),
                       !triedRecord {
                        // No documented create went through, and this check needs a record's credentials: one create of the
                        // set is made for it (refused keys taken out), its answer unjudged.
                        triedRecord = true
                        if let record = await state.values.createRecord(contracts: contracts, target: target, client: client, unique: state.unique) {
                            state.id = record.id
                            state.secret = record.secret
                            state.createdIDs.append(record.id)
                            result.notes.append("made one record with \(record.contractID) (id \(record.id)) for the checks that need one")
                        }
                    }
                    if let contract {
                        // A parameter no example names and no earlier answer gave: the set's lists may carry it.
                        for name in Self.unfilled(check.recipe, contract: contract, state: state) {
                            _ = await state.values.discover(name, of: contract, contracts: contracts, target: target, client: client)
                        }
                        for name in Self.unfilled(check.recipe, contract: contract, state: state, taken: true) {
                            if let found = state.values.value(for: name, of: contract) { result.notes.append("{\(name)} = \(found.value), from \(found.source)") }
                        }
                    }
                    let request = try builder.build(check.recipe, state: state, contract: contract)
                    let answer: HTTPAnswer
                    do {
                        let received = try await client.send(request)
                        answer = HTTPAnswer(status: received.status, headers: received.headers, body: received.body)
                    } catch {
                        throw VerificationError("\(request.httpMethod ?? "") \(request.url?.path ?? "") got no HTTP answer: \(error)")
                    }
                    if let contract {
                        state.values.capture(contract, status: answer.status, headers: answer.headers, body: answer.body,
                                             pathValues: check.recipe.pathParameters, contracts: contracts)
                    }
                    let responseCheck = ResponseCheck(contracts: contracts, check: check, ignoreMessages: ignoreMessages)
                    var mismatches = responseCheck.mismatches(in: answer)
                    if lenientFormats {
                        let formats = responseCheck.formatSubjects(in: answer)
                        let noted = mismatches.filter { formats.contains($0.subject) }
                        mismatches.removeAll { formats.contains($0.subject) }
                        if !noted.isEmpty {
                            result.status = .note
                            result.notes += noted.map { "\($0.subject): \($0.expected), found \($0.actual) (a format: a note under --formats lenient)" }
                        }
                    }
                    mismatches += InvariantCheck.mismatches(check, answer, &state, contracts: contracts)
                    if answer.status == check.response.status, (200..<300).contains(answer.status) { succeeded.insert(check.name) }
                    if let reason = Self.stateNotMade(check, answer, contracts: contracts, stateless: stateless) {
                        // The document states this answer too; which one comes depends on a record it has no way to make.
                        result.status = .note
                        result.notes = [reason]
                        mismatches = []
                    }
                    let defect = knownDefects.defect(contractID: check.contractID, example: check.exampleName)
                        ?? knownDefects.defect(for: request, basePath: target.path, contractID: check.contractID, contracts: contracts)
                    if let defect, mismatches.isEmpty {
                        unseen.append(defect)
                    } else if let defect {
                        let differences = KnownDefectMatcher.differences(answer, from: defect)
                        if differences.isEmpty {
                            result.status = .knownDefect
                            result.knownDefects = [defect]
                            seen.insert(defect.id)
                            mismatches = []
                        } else {
                            // Neither the documented answer nor the listed defect: that is drift, and the report says both.
                            mismatches += differences
                        }
                    }
                    if !mismatches.isEmpty {
                        result.status = .failed
                        result.failure = ScenarioFailure(
                            stepNumber: nil, action: nil, pointer: nil, mismatches: mismatches,
                            journalExcerpt: ["\(request.httpMethod ?? "") \(request.url?.absoluteString ?? "") → \(answer.status) \(ResponseCheck.excerpt(answer.body))"])
                    }
                } catch where error.unreachable {
                    result.status = .skipped
                    result.skipReason = error.message
                    if let i = unreachable.firstIndex(where: { $0.contractID == check.contractID }) {
                        unreachable[i].examples.append(check.exampleName)
                    } else {
                        unreachable.append((check.contractID, check.file, error.message, [check.exampleName]))
                    }
                } catch {
                    result.status = .failed
                    result.failure = ScenarioFailure(stepNumber: nil, action: nil, pointer: nil,
                                                     mismatches: [Mismatch("request", expected: "an answer to check", actual: error.message)])
                }
            }
            result.duration = clock.now - checkStarted
            results.append(result)
        }
        for entry in unreachable {
            var result = ScenarioResult(name: "\(entry.contractID) › not reachable", file: entry.file, tags: [entry.contractID], status: .note, duration: .zero)
            result.notes = ["\(entry.reason); not sent: \(entry.examples.joined(separator: ", "))"]
            results.append(result)
        }
        var report = RunReport(results: results, duration: clock.now - started, client: "provider verification", target: target.absoluteString)
        var reported: Set<String> = []
        report.unseenKnownDefects = unseen.filter { !seen.contains($0.id) && reported.insert($0.id).inserted }
        report.expiredKnownDefects = knownDefects.expired
        report.strictKnownDefects = strict
        return Outcome(report: report, createdRecords: state.createdIDs)
    }
}

extension ProviderVerifier {
    /// The path parameters (and required query parameters) of `recipe` nothing fills yet: no example value, no created
    /// record for an `{id}`, no earlier answer.
    /// `taken`: those the server's answers fill instead (each is named in the result's notes).
    static func unfilled(_ recipe: RequestRecipe, contract: Contract, state: VerificationState, taken: Bool = false) -> [String] {
        var names = contract.path.parameterNames.filter { name in
            recipe.pathParameters[name] == nil && !(name == "id" && state.id != nil) && !(name == "file" && state.photoFile != nil)
        }
        names += contract.request.query.filter { parameter in parameter.required && !recipe.query.contains { $0.0 == parameter.name } }.map(\.name)
        return names.filter { (state.values.value(for: $0, of: contract) == nil) != taken }
    }

    /// Why a stateless document's success example came back as another answer the same operation documents, when that
    /// answer is one a missing record explains (unauthorised, forbidden, not found, a conflict); nil otherwise.
    static func stateNotMade(_ check: VerificationCheck, _ answer: HTTPAnswer, contracts: ContractSet, stateless: Bool) -> String? {
        guard stateless, check.recipe.before.isEmpty, (200..<300).contains(check.response.status), answer.status != check.response.status,
            [401, 403, 404, 409].contains(answer.status),
            let contract = contracts.contract(id: check.contractID), contract.responses.contains(where: { $0.status == answer.status })
        else { return nil }
        return "not reachable: answered \(answer.status), which the contract also states (\(ResponseCheck.excerpt(answer.body))); "
            + "whether the \(check.response.status) comes depends on records none of its operations sets up"
    }
}

/// Why a check could not be sent or answered.
struct VerificationError: Error, Sendable {
    let message: String
    /// The request cannot be built from what the run has: not the server's fault, so not a failure.
    var unreachable = false
    init(_ message: String, unreachable: Bool = false) {
        self.message = message
        self.unreachable = unreachable
    }
}
