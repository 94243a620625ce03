import ContractKit
import ContractModel
import Foundation
import ScenarioEngine

/// Generates sessions from a seed and runs them (several at once) until the budget ends; groups the failing ones by
/// the check they broke, shrinks one per group toward that check, and keeps it only if it fails the same way on three
/// fresh replays.
public struct Explorer: Sendable {
    /// Runs one session.
    public let runner: SessionRunner
    /// Makes the sessions.
    public let generator: SessionGenerator
    /// How many sessions run at once.
    public let jobs: Int
    /// How much to explore (for a shard: the whole seeded budget, of which it runs its slice).
    public let budget: Budget
    /// Stop starting sessions once this many distinct checks have failed; `nil` runs the whole budget.
    public var maxFailures: Int?
    /// The slice of the session indices this runner explores, `nil` for all of them.
    public var shard: Shard?
    /// How many fresh replays of the shrunk session must fail the same way for it to count, after the one whose
    /// failure its summary quotes.
    public static let confirmations = 3
    /// The most replays a shrunk session gets to fail the same way `1 + confirmations` times. A bug that hangs on timing
    /// (a retry the client starts on its own 300 ms after a failure) can miss one replay while every test suite shares
    /// two cores; a failure a slow machine caused once does not come back four times.
    public static let replayBudget = 8
    /// How many sessions run at once when not told: two per core. A session spends most of its time waiting on
    /// purpose (an idle step's 500 ms, a stalled call's client timeout, a late answer), not computing: at one session
    /// per core a default run of the seeds' profile used 28 of its 91 core-seconds (200 sessions, 2 cores, 3 Dec
    /// 2026), so a second session per core overlaps the waits and leaves room for a loaded machine; a session that
    /// times out because the machine was slow is run again with the deadlines raised, never blamed (`SlowMachineTests`).
    public static func defaultJobs(cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
        2 * max(1, cores)
    }

    /// An explorer; `jobs` below 1 counts as 1.
    public init(runner: SessionRunner, seed: UInt64, jobs: Int, budget: Budget, maxFailures: Int? = nil, shard: Shard? = nil) {
        self.runner = runner
        generator = SessionGenerator(seed: seed, form: runner.form)
        self.jobs = max(1, jobs)
        self.budget = budget
        self.maxFailures = maxFailures
        self.shard = shard
    }

    /// The session indices this runner explores, in order: every index, or every n-th from the shard's own.
    public func index(_ k: Int) -> Int {
        guard let shard else { return k }
        return (shard.index - 1) + k * shard.count
    }

    /// Explores; `progress` sees each finished session index. Same seed, shard and client → same sessions and the same
    /// groups, whatever order parallel sessions finish in (each group's representative is its lowest failing index).
    public func explore(progress: @escaping @Sendable (Int) -> Void = { _ in }) async throws(ExplorationError) -> ExplorationReport {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline: ContinuousClock.Instant? = { if case .seconds(let s) = budget { return start + .milliseconds(Int(s * 1000)) } else { return nil } }()
        let limit: Int = { if case .runs(let n) = budget { return max(0, n) } else { return Int.max } }()
        var rules: [ModelRule: Int] = [:]
        var sessions = 0
        var skipped: [String: Int] = [:]
        var steps = 0
        var retried = 0
        var slow = 0
        var failing: [String: (count: Int, index: Int, session: Session, outcome: SessionRunner.Outcome)] = [:]
        var thrown: ExplorationError?
        let runner = self.runner
        let generator = self.generator
        let maxFailures = self.maxFailures
        await withTaskGroup(of: (Int, Session, Result<SessionRunner.Outcome, ExplorationError>).self) { group in
            var k = 0
            func startNext() {
                let index = self.index(k)
                guard index < limit, thrown == nil else { return }
                if let maxFailures, failing.count >= maxFailures { return }
                if let deadline, k > 0, clock.now >= deadline { return }
                k += 1
                let session = generator.session(index)
                group.addTask {
                    do throws(ExplorationError) {
                        return (index, session, .success(try await runner.run(session, name: "explored session \(index)")))
                    } catch {
                        return (index, session, .failure(error))
                    }
                }
            }
            for _ in 0..<jobs { startNext() }
            while let (index, session, result) = await group.next() {
                switch result {
                case .success(let outcome):
                    sessions += 1
                    if let reason = outcome.skipReason { skipped[reason, default: 0] += 1 }
                    if outcome.retried { retried += 1 }
                    if outcome.slowMachine { slow += 1 }
                    steps += outcome.steps.count
                    if outcome.skipReason == nil { for step in outcome.steps { for rule in step.rules { rules[rule, default: 0] += 1 } } }
                    if let failure = outcome.failure {
                        let key = failure.signature
                        let count = (failing[key]?.count ?? 0) + 1
                        if let kept = failing[key], kept.index < index {
                            failing[key]?.count = count
                        } else {
                            failing[key] = (count, index, session, outcome)
                        }
                    }
                case .failure(let error):
                    thrown = error
                }
                progress(index)
                startNext()
            }
        }
        if let thrown { throw thrown }
        var report = ExplorationReport(seed: generator.seed, client: runner.driver.description, sessions: sessions, steps: steps, rules: rules,
                                       duration: clock.now - start)
        report.skipped = skipped
        report.retriedSessions = retried
        report.slowMachineSessions = slow
        report.shard = shard
        // One shrink per group, several groups at once; a group whose minimal session does not fail again is dropped.
        let candidates = failing.sorted { $0.value.index < $1.value.index }
        var confirmed: [FailureGroup] = []
        var unconfirmed: [String] = []
        var shrinkError: ExplorationError?
        await withTaskGroup(of: (String, Result<FailureGroup?, ExplorationError>).self) { group in
            var next = 0
            func startNext() {
                guard next < candidates.count else { return }
                let (key, found) = candidates[next]
                next += 1
                group.addTask {
                    do throws(ExplorationError) {
                        guard let failure = found.outcome.failure else { return (key, .success(nil)) }
                        let shrunk = try await self.shrink(found.session, index: found.index, failure: failure, originalSteps: found.outcome.steps.count)
                        return (key, .success(shrunk.map { c in
                            FailureGroup(signature: key, rule: c.failure.rule, headline: c.failure.headline, message: c.failure.message, sessions: found.count,
                                         seed: generator.seed, sessionIndex: found.index, document: c.document, originalSteps: c.steps.original,
                                         shrunkSteps: c.steps.shrunk, shrinkRuns: c.shrinkRuns, counterexample: c)
                        }))
                    } catch {
                        return (key, .failure(error))
                    }
                }
            }
            for _ in 0..<jobs { startNext() }
            while let (key, result) = await group.next() {
                switch result {
                case .success(let g?): confirmed.append(g)
                case .success(nil): unconfirmed.append(key)
                case .failure(let error): shrinkError = error
                }
                startNext()
            }
        }
        if let shrinkError { throw shrinkError }
        report.groups = ExplorationReport.ordered(confirmed)
        report.unconfirmed = unconfirmed.sorted()
        report.duration = clock.now - start
        return report
    }

    /// Shrinks `session` while the check that failed still fails (anywhere in the session), writes the result as a
    /// scenario file, and replays that file, each time with a fresh backend, until it has failed the same check four
    /// times (`1 + confirmations`) or `replayBudget` replays have run; `nil` if it fell short. The failure reported is
    /// the first confirming replay's, of the saved file: step numbers refer to it.
    public func shrink(_ session: Session, index: Int, failure: SessionFailure, originalSteps: Int) async throws(ExplorationError) -> Counterexample? {
        let runner = self.runner
        let check = failure.signature
        let shrinker = Shrinker<Session>(candidates: SessionShrinking.candidates)
        let (shrunk, tried) = await shrinker.shrink(session) { candidate in
            guard let outcome = try? await runner.run(candidate) else { return false }
            return outcome.failure != nil && outcome.checks.contains(check)
        }
        // The summary quotes the saved file's own failure, so the first failing replay runs the file without one and
        // the confirming replays run the file with it.
        let unnamed = runner.model(shrunk, name: "explored", summary: "")
        var named: (steps: [ModelledStep], document: JSONValue)?
        let failures = try await Self.replayUntilConfirmed(needed: 1 + Self.confirmations, budget: Self.replayBudget) {
            (found: [SessionFailure]) throws(ExplorationError) -> SessionFailure? in
            if named == nil, let first = found.first {
                let name = "explored: \(first.rule.rawValue) (seed \(generator.seed), session \(index))"
                let summary = "Found by spotcheck explore --seed \(generator.seed) (session \(index)), shrunk from \(originalSteps) to "
                    + "\(unnamed.steps.count) steps. It breaks the rule that \(first.rule.statement). First failure: \(first.headline)"
                named = runner.model(shrunk, name: name, summary: summary)
            }
            let (steps, document) = named ?? unnamed
            let replay = try await runner.replay(document, steps: steps)
            guard let failure = replay.failure, replay.checks.contains(check) else { return nil }
            return failure
        }
        guard let failures, let named else { return nil }
        return Counterexample(sessionIndex: index, original: session, shrunk: shrunk, failure: failures[1], document: named.document,
                              steps: (originalSteps, named.steps.count), shrinkRuns: tried)
    }

    /// Replays (through `replay`, which gets the failures so far and returns this replay's, or nil if it did not fail
    /// the same way) until `needed` have failed or `budget` replays have run, stopping early once the replays left
    /// cannot make up the difference; the failures in order when `needed` were reached, else nil.
    static func replayUntilConfirmed<Failure>(
        needed: Int, budget: Int, _ replay: (_ found: [Failure]) async throws(ExplorationError) -> Failure?
    ) async throws(ExplorationError) -> [Failure]? {
        var found: [Failure] = []
        var replays = 0
        while found.count < needed, needed - found.count <= budget - replays {
            replays += 1
            if let failure = try await replay(found) { found.append(failure) }
        }
        return found.count == needed ? found : nil
    }

    /// Writes the counterexample's scenario into `directory` as `explored-<rule>-seed<S>-<index>.json`; returns the file.
    public static func save(_ c: Counterexample, seed: UInt64, in directory: URL) throws -> URL {
        try write(c.document, named: "explored-\(c.failure.rule.rawValue)-seed\(seed)-\(c.sessionIndex).json", in: directory)
    }

    /// Writes one scenario per group into `directory`; returns the files.
    public static func save(_ groups: [FailureGroup], in directory: URL) throws -> [URL] {
        try groups.map { g in try write(g.document, named: g.fileName, in: directory) }
    }

    static func write(_ document: JSONValue, named name: String, in directory: URL) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try (document.serialized(pretty: true) + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }
}
