import Foundation

/// Runs many scenarios in parallel (at most `jobs` at a time), each fully isolated.
public struct SuiteRunner: Sendable {
    /// Runs one scenario.
    public let runner: ScenarioRunner
    /// How many scenarios run at once.
    public let jobs: Int
    /// Stop starting scenarios after the first failure; the rest are reported as skipped.
    public let failFast: Bool

    /// A suite runner; `jobs` below 1 counts as 1.
    public init(runner: ScenarioRunner, jobs: Int = ProcessInfo.processInfo.activeProcessorCount, failFast: Bool = false) {
        self.runner = runner
        self.jobs = max(1, jobs)
        self.failFast = failFast
    }

    /// Runs `scenarios`; `onResult` sees each result as it finishes. Returns the report in scenario order.
    public func run(_ scenarios: [Scenario], onResult: @escaping @Sendable (ScenarioResult) -> Void = { _ in }) async -> RunReport {
        let clock = ContinuousClock()
        let start = clock.now
        var results = [ScenarioResult?](repeating: nil, count: scenarios.count)
        let runner = self.runner
        await withTaskGroup(of: (Int, ScenarioResult).self) { group in
            var next = 0
            var stopped = false
            func startNext() {
                guard next < scenarios.count, !stopped else { return }
                let index = next
                let scenario = scenarios[index]
                next += 1
                group.addTask { (index, await runner.run(scenario)) }
            }
            for _ in 0..<min(jobs, scenarios.count) { startNext() }
            while let (index, result) = await group.next() {
                results[index] = result
                onResult(result)
                if failFast && result.status == .failed { stopped = true }
                startNext()
            }
        }
        var final: [ScenarioResult] = []
        for (i, scenario) in scenarios.enumerated() {
            if let result = results[i] {
                final.append(result)
            } else {
                let skipped = ScenarioResult(name: scenario.name, file: scenario.displayPath, tags: scenario.tags, status: .skipped,
                                             duration: .zero, skipReason: "not run: --fail-fast stopped the run after a failure")
                onResult(skipped)
                final.append(skipped)
            }
        }
        var report = RunReport(results: final, duration: clock.now - start, client: runner.driver.description, target: runner.targets.description)
        report.unseenKnownDefects = KnownDefectSighting.unseen(in: final)
        return report
    }
}
