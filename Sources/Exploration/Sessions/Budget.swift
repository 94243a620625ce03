import Foundation

/// How much exploring to do: a number of sessions, or a wall-clock duration.
public enum Budget: Sendable, Equatable {
    /// This many sessions.
    case runs(Int)
    /// As many sessions as fit in this many seconds (at least one).
    case seconds(Double)

    /// The default: enough to reach every rule and stay well within a CI minute.
    public static let standard = Budget.runs(200)

    /// Parses `--time` values such as `30s`, `2m`, `90` (seconds); `nil` when malformed.
    public init?(duration text: String) {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        let (number, scale): (Substring, Double) = t.hasSuffix("ms") ? (t.dropLast(2), 0.001) : t.hasSuffix("s") ? (t.dropLast(), 1)
            : t.hasSuffix("m") ? (t.dropLast(), 60) : (Substring(t), 1)
        // At most a year: `Explorer` turns the seconds into whole milliseconds, which must not overflow.
        guard let value = Double(number), value > 0, value.isFinite, value * scale <= 31_536_000 else { return nil }
        self = .seconds(value * scale)
    }
}
