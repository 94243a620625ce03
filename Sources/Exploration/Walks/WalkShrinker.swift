/// Shrinks a walk that differs to the shortest walk found that still differs the same way: the steps after the first
/// difference go, then runs of steps are removed, halving the run length down to single steps (delta debugging), each
/// candidate replayed on every side from scratch and kept only when a step of it differs with the same signature.
struct WalkShrinker: Sendable {
    /// The most requests shrinking one walk may send (replays and their clean-up).
    var budget = 3000

    /// `steps` shrunk; `replay` runs a candidate and returns the signature of its first differing step (nil: none) and
    /// the requests it sent. Returns the shortest walk kept, cut after its differing step, and the requests spent.
    func shrink(_ steps: [WalkStep], signature: String,
                replay: ([WalkStep]) async -> (signature: String?, differingStep: Int?, requests: Int)) async -> (steps: [WalkStep], requests: Int) {
        var best = steps
        var spent = 0
        var chunk = max(1, best.count / 2)
        while spent < budget {
            var start = 0
            var removedAny = false
            while start < best.count, spent < budget {
                var candidate = best
                candidate.removeSubrange(start..<min(best.count, start + chunk))
                if candidate.isEmpty { start += chunk; continue }
                let seen = await replay(candidate)
                spent += seen.requests
                if seen.signature == signature, let step = seen.differingStep {
                    best = Array(candidate.prefix(step + 1))
                    removedAny = true
                } else {
                    start += chunk
                }
            }
            if chunk > 1 {
                chunk /= 2
            } else if !removedAny {
                break
            }
        }
        return (best, spent)
    }
}
