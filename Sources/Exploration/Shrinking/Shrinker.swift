/// Greedy shrinking in the manner of Hypothesis: try each simpler candidate in order, keep the first that still fails
/// the same way, start again from it; stop when no candidate does or the attempt budget is spent.
public struct Shrinker<Value: Sendable & Equatable>: Sendable {
    /// Simpler variants of a value, the most aggressive first (e.g. half the actions gone before one).
    public let candidates: @Sendable (Value) -> [Value]
    /// The most candidate runs one shrink may spend.
    public let budget: Int

    /// A shrinker with this candidate function and budget.
    public init(budget: Int = 400, candidates: @escaping @Sendable (Value) -> [Value]) {
        self.candidates = candidates
        self.budget = budget
    }

    /// The simplest value reached from `value` for which `stillFails` holds, and how many candidates were tried.
    public func shrink(_ value: Value, stillFails: (Value) async -> Bool) async -> (value: Value, tried: Int) {
        var current = value
        var tried = 0
        // A few hundred candidates at most: a list is enough, and values need only be equatable.
        var seen: [Value] = [value]
        var progress = true
        while progress, tried < budget {
            progress = false
            for candidate in candidates(current) where tried < budget && !seen.contains(candidate) {
                seen.append(candidate)
                tried += 1
                if await stillFails(candidate) {
                    current = candidate
                    progress = true
                    break
                }
            }
        }
        return (current, tried)
    }
}
