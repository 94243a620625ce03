/// Tells a slow machine from a slow client: a scenario that failed after the client timed out on a step where no
/// fault that can end in a time-out was planned is run again with the deadlines raised; if it then passes, the
/// machine was too slow (a busy CI runner), which is reported as such and never as a client bug.
public enum SlowMachineRetry {
    /// The fault kinds that make a client time-out expected, so a time-out in their step is the scenario's own doing:
    /// the timing faults, and a `drop` or `reset`, which a client that reuses its connection (libcurl, on Linux) meets
    /// by sending again on a fresh one and waiting out its request timeout (docs/client-error-mapping.md). Blaming the
    /// machine for those passed a scenario on a second run the client's own mapping of the time-out had failed.
    public static let timingFaults: Set<String> = ["stall", "delay", "slowBody", "drop", "reset"]
    /// How much the request and step timeouts are raised for the second run.
    public static let factor = 5

    /// Whether a step's client time-out was unplanned: none of the step's requests met a timing fault.
    static func unplanned(stepRecords: [JournalRecord]) -> Bool {
        !stepRecords.contains { $0.fault.map(timingFaults.contains) ?? false }
    }

    /// `scenario` with its request and step timeouts raised by `factor`.
    public static func raised(_ scenario: Scenario) -> Scenario {
        var s = scenario
        s.client = ClientSettings(requestTimeoutMs: scenario.client.requestTimeoutMs * factor, stepTimeoutMs: scenario.client.stepTimeoutMs * factor)
        return s
    }

    /// Whether `cause` is the platform's request time-out.
    static func isTimeout(_ cause: ObservedCause?) -> Bool {
        guard let cause else { return false }
        return (cause.kind == .urlError && cause.code == -1001) || (cause.kind == .transport && cause.reason == "timedOut")
    }

    /// The verdict for a scenario whose first run failed after unplanned time-outs and whose raised run passed.
    static func tooSlow(_ first: ScenarioResult, raisedTimeoutMs: Int) -> ScenarioResult {
        var r = first
        r.status = .skipped
        let steps = first.unplannedTimeouts.map(String.init).joined(separator: ", ")
        r.skipReason = "\(reasonPrefix): the client timed out at step \(steps) with no fault planned there that ends in a time-out, "
            + "and the scenario passed with the request timeout raised to \(raisedTimeoutMs) ms; not a client bug (first run: \(first.failure?.headline ?? "failed"))"
        r.slowMachine = true
        return r
    }

    /// How a skip for a slow machine starts, for reports and people.
    public static let reasonPrefix = "the machine was too slow"
}
