import NIOConcurrencyHelpers
import ScenarioEngine

/// The stand-ins one exploration has handed out for its unique fields, so two of its cases meet the same value only
/// where one of them means to (a duplicate of the value the run registered), never by chance.
///
/// A chance meeting is worse than a false 409: a recorded baseline numbers a run's fresh values by first appearance
/// (`BaselineRecording`), so a value that repeats in one run and not in the other put every later request of a replay
/// out of step. Values of a shape with little room (one letter between spaces) were one of a few dozen.
final class StandInLedger: Sendable {
    /// The holder of each value handed out, by field and the value as a server compares it.
    private let holders = NIOLockedValueBox<[String: String]>([:])

    /// How many values of one shape are tried before a shape with no room left is allowed to repeat.
    static let attempts = 64

    /// An empty ledger, for one run.
    init() {}

    /// `standIns`' value of `original`'s shape for `field`: the same every time this case asks (each side renders the
    /// case), and one no other case of the run holds while the shape has room.
    func standIn(for original: String, field: String, from standIns: UniqueStandIns) -> String {
        let holder = standIns.runToken + "\u{0}" + original
        return holders.withLockedValue { holders in
            for attempt in 0..<Self.attempts {
                let value = standIns.sameShape(original, attempt: attempt)
                let key = field + "\u{0}" + Self.comparable(value)
                if holders[key] == nil || holders[key] == holder {
                    holders[key] = holder
                    return value
                }
            }
            return standIns.sameShape(original)
        }
    }

    /// A value as a server compares unique values: trimmed (the rules trim before they store) and ignoring case (as an
    /// email key is), with the letters and digits of an address's first domain label masked: the run's tag overwrites
    /// them afterwards (`FreshValues.withRunTag`), so two stand-ins that differ only there would meet on the wire.
    static func comparable(_ value: String) -> String {
        let text = value.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard let at = text.firstIndex(of: "@") else { return text }
        var result = String(text[...at])
        var inLabel = true
        for character in text[text.index(after: at)...] {
            if character == "." { inLabel = false }
            result.append(inLabel && character.isASCII && (character.isLetter || character.isNumber) ? "*" : character)
        }
        return result
    }
}
