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

    /// A verifier of `target` against `contracts`.
    public init(contracts: ContractSet, target: URL, timeout: TimeInterval = 30) {
        self.contracts = contracts
        self.target = target
        self.timeout = timeout
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
        var state = VerificationState(microchip: VerificationState.freshMicrochip())
        var results: [ScenarioResult] = []
        let client = ExactHTTPClient(timeout: .milliseconds(Int(timeout * 1000)))
        for check in plan {
            let checkStarted = clock.now
            var result = ScenarioResult(name: check.name, file: check.file, tags: [check.contractID], status: .passed, duration: .zero)
            if let reason = check.skipReason {
                result.status = .skipped
                result.skipReason = reason
            } else {
                do throws(VerificationError) {
                    let request = try RequestBuilder(target: target, timeout: timeout).build(check.recipe, state: state)
                    let answer: HTTPAnswer
                    do {
                        let received = try await client.send(request)
                        answer = HTTPAnswer(status: received.status, headers: received.headers, body: received.body)
                    } catch {
                        throw VerificationError("\(request.httpMethod ?? "") \(request.url?.path ?? "") got no HTTP answer: \(error)")
                    }
                    var mismatches = ResponseCheck(contracts: contracts, check: check).mismatches(in: answer)
                    mismatches += InvariantCheck.mismatches(check, answer, &state)
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
        let report = RunReport(results: results, duration: clock.now - started, client: "provider verification", target: target.absoluteString)
        return Outcome(report: report, createdAnnouncements: state.createdIDs)
    }
}

/// Why a check could not be sent or answered.
struct VerificationError: Error, Sendable {
    let message: String
    init(_ message: String) { self.message = message }
}
