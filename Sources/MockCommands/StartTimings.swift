import Foundation

/// The wall-clock phases of `spotcheck serve`'s start, printed by `--timings` as one JSON line on standard error.
///
/// bench/run.sh reads the line to show where the start → first answer time goes (issue 16): contract loading apart
/// from binding. Time before `main` (the dynamic loader) is not visible from here; the benchmark gets it as the rest.
struct StartTimings {
    private let enabled: Bool
    private var last = ContinuousClock.now
    private var phases: [(name: String, ms: Double)] = []

    init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Ends the phase running since the previous mark (or since creation) and names it.
    mutating func mark(_ phase: String) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let elapsed = last.duration(to: now).components
        phases.append((phase, Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15))
        last = now
    }

    /// `{"timings": {"phase": ms, ...}}` in phase order, or nil when timing is off.
    var jsonLine: String? {
        guard enabled else { return nil }
        let fields = phases.map { "\"\($0.name)\": \(String(format: "%.3f", $0.ms))" }.joined(separator: ", ")
        return "{\"timings\": {\(fields)}}\n"
    }

    /// Writes the line to standard error when timing is on.
    func print() {
        guard let line = jsonLine else { return }
        FileHandle.standardError.write(Data(line.utf8))
    }
}
