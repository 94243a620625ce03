import ContractModel
/// The largest value each number of a fault rule may take, so that no accepted rule can overflow later: a rule is
/// read once and applied on every request, where seconds become milliseconds, nanoseconds (NIO's `TimeAmount`) and
/// whole header values. A value past its bound is refused when the rule is read, naming the JSON pointer.
///
/// The bounds are far beyond any useful test (a year of outage, a gigabyte chunk) and far below where `Int`, `Int64`
/// nanoseconds or `Double`'s exact integers run out.
public enum FaultRanges {
    /// Seconds of a schedule (`outage.seconds`, `outage.after`, `quota.windowSeconds`, `ramp.seconds`): at most 365 days.
    public static let maxSeconds: Double = 31_536_000
    /// Milliseconds of a fault (`delay.ms`, `slowBody.intervalMs`, `refuse.ms`, `refuseAfterAnswer.ms`): at most 365 days.
    public static let maxMilliseconds = 31_536_000_000
    /// Bytes of a fault (`truncate.bytes`, `slowBody.chunkBytes`): at most 1 GiB.
    public static let maxBytes = 1 << 30
    /// Counts of a rule (`from`, `every`, `times`, `calls`, `quota.limit`): at most a billion.
    public static let maxCount = 1_000_000_000
    /// A rule's `seed`: at most 2^52, well inside the whole numbers a JSON number holds exactly.
    public static let maxSeed = 1 << 52

    /// Whole seconds of `seconds`, rounded up and held to `1...maxSeconds` even when a rule was built in code with a
    /// value the reader would refuse (no trap on `Int(Double)`).
    static func wholeSecondsUp(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return Int(maxSeconds) }
        return Int(min(max(seconds.rounded(.up), 1), maxSeconds))
    }

    /// Milliseconds of `seconds`, rounded up and held to `1...maxMilliseconds`.
    static func millisecondsUp(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return maxMilliseconds }
        return Int(min(max((seconds * 1000).rounded(.up), 1), Double(maxMilliseconds)))
    }
}
