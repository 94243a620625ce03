import ContractKit
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
        public let createdAnnouncements: [String]
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
        for check in plan {
            let checkStarted = clock.now
            var result = ScenarioResult(name: check.name, file: check.file, tags: [check.contractID], status: .passed, duration: .zero)
            if let reason = check.skipReason {
                result.status = .skipped
                result.skipReason = reason
            } else {
                do throws(VerificationError) {
                    let request = try RequestBuilder(target: target, timeout: timeout, adminToken: adminToken).build(check.recipe, state: state)
                    let answer: HTTPAnswer
                    do {
                        let received = try await client.send(request)
                        answer = HTTPAnswer(status: received.status, headers: received.headers, body: received.body)
                    } catch {
                        throw VerificationError("\(request.httpMethod ?? "") \(request.url?.path ?? "") got no HTTP answer: \(error)")
                    }
                    var mismatches = ResponseCheck(contracts: contracts, check: check, ignoreMessages: ignoreMessages).mismatches(in: answer)
                    mismatches += InvariantCheck.mismatches(check, answer, &state)
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
                } catch {
                    result.status = .failed
                    result.failure = ScenarioFailure(stepNumber: nil, action: nil, pointer: nil,
                                                     mismatches: [Mismatch("request", expected: "an answer to check", actual: error.message)])
                }
            }
            result.duration = clock.now - checkStarted
            results.append(result)
        }
        var report = RunReport(results: results, duration: clock.now - started, client: "provider verification", target: target.absoluteString)
        var reported: Set<String> = []
        report.unseenKnownDefects = unseen.filter { !seen.contains($0.id) && reported.insert($0.id).inserted }
        report.expiredKnownDefects = knownDefects.expired
        report.strictKnownDefects = strict
        return Outcome(report: report, createdAnnouncements: state.createdIDs)
    }
}

/// Why a check could not be sent or answered.
struct VerificationError: Error, Sendable {
    let message: String
    init(_ message: String) { self.message = message }
}
