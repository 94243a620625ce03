import ContractKit
import Foundation

/// Generates sessions from a seed, runs them (several at once), and shrinks the first one the client fails.
public struct Explorer: Sendable {
    /// Runs one session.
    public let runner: SessionRunner
    /// Makes the sessions.
    public let generator: SessionGenerator
    /// How many sessions run at once.
    public let jobs: Int
    /// How much to explore.
    public let budget: Budget

    /// An explorer; `jobs` below 1 counts as 1.
    public init(runner: SessionRunner, seed: UInt64, jobs: Int, budget: Budget) {
        self.runner = runner
        generator = SessionGenerator(seed: seed)
        self.jobs = max(1, jobs)
        self.budget = budget
    }

    /// Explores; `progress` sees each finished session index. Same seed and client → same sessions, same counterexample
    /// (the lowest failing index among those run, whatever order parallel sessions finish in).
    public func explore(progress: @escaping @Sendable (Int) -> Void = { _ in }) async throws(ExplorationError) -> ExplorationReport {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline: ContinuousClock.Instant? = { if case .seconds(let s) = budget { return start + .milliseconds(Int(s * 1000)) } else { return nil } }()
        let limit: Int = { if case .runs(let n) = budget { return max(0, n) } else { return Int.max } }()
        var rules: [ModelRule: Int] = [:]
        var sessions = 0
        var skipped: [String: Int] = [:]
        var steps = 0
        var failures: [(index: Int, session: Session, outcome: SessionRunner.Outcome)] = []
        var thrown: ExplorationError?
        let runner = self.runner
        let generator = self.generator
        await withTaskGroup(of: (Int, Session, Result<SessionRunner.Outcome, ExplorationError>).self) { group in
            var next = 0
            func startNext() {
                guard next < limit, failures.isEmpty, thrown == nil else { return }
                if let deadline, next > 0, clock.now >= deadline { return }
                let index = next
                next += 1
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
                    steps += outcome.steps.count
                    if outcome.skipReason == nil { for step in outcome.steps { for rule in step.rules { rules[rule, default: 0] += 1 } } }
                    if outcome.failure != nil { failures.append((index, session, outcome)) }
                case .failure(let error):
                    thrown = error
                }
                progress(index)
                startNext()
            }
        }
        if let thrown { throw thrown }
        var report = ExplorationReport(seed: generator.seed, client: runner.driver.description, sessions: sessions, steps: steps, rules: rules,
                                       counterexample: nil, duration: clock.now - start)
        report.skipped = skipped
        if let first = failures.min(by: { $0.index < $1.index }), let failure = first.outcome.failure {
            report.counterexample = try await shrink(first.session, index: first.index, failure: failure, originalSteps: first.outcome.steps.count)
            report.duration = clock.now - start
        }
        return report
    }

    /// Shrinks `session` while it fails with the same signature, and writes the result as a scenario file.
    public func shrink(_ session: Session, index: Int, failure: SessionFailure, originalSteps: Int) async throws(ExplorationError) -> Counterexample {
        let runner = self.runner
        let shrinker = Shrinker<Session>(candidates: SessionShrinking.candidates)
        let (shrunk, tried) = await shrinker.shrink(session) { candidate in
            guard let outcome = try? await runner.run(candidate) else { return false }
            return outcome.failure?.signature == failure.signature
        }
        let name = "explored: \(failure.rule.rawValue) (seed \(generator.seed), session \(index))"
        let summary = "Found by spotcheck explore --seed \(generator.seed) (session \(index)), shrunk from \(originalSteps) steps. "
            + "It breaks the rule that \(failure.rule.statement). First failure: \(failure.headline)"
        let (steps, document) = runner.model(shrunk, name: name, summary: summary)
        // The shrunk file is judged again exactly as saved, so the report shows the message `spotcheck run` prints; a
        // timing-dependent bug (a retry the client starts on its own) may need more than one run to show.
        var final = failure
        for _ in 0..<3 {
            let result = try await SessionRunner.judge(document, driver: runner.driver, contracts: runner.contracts, seed: runner.seed)
            if let replayed = result.failure.map({ SessionFailure($0, steps: steps) }), replayed.signature == failure.signature {
                final = replayed
                break
            }
        }
        return Counterexample(sessionIndex: index, original: session, shrunk: shrunk, failure: final, document: document,
                              steps: (originalSteps, steps.count), shrinkRuns: tried)
    }

    /// Writes the counterexample's scenario into `directory` as `explored-<rule>-seed<S>-<index>.json`; returns the file.
    public static func save(_ c: Counterexample, seed: UInt64, in directory: URL) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("explored-\(c.failure.rule.rawValue)-seed\(seed)-\(c.sessionIndex).json")
        try (c.document.serialized(pretty: true) + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }
}
