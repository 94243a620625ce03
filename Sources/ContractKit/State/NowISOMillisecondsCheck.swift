import Foundation

/// `now-iso-ms`: the time the server made the value, written `2025-11-19T10:00:00.000Z` (UTC, milliseconds), and close to
/// the server's own clock (its `Date` header) within the context's tolerance.
enum NowISOMillisecondsCheck {
    static let format = "an ISO 8601 UTC time with milliseconds (2025-11-19T10:00:00.000Z)"

    static func problem(_ value: JSONValue, context: GeneratedValueContext) -> GeneratedValueProblem? {
        guard let text = value.stringValue else { return GeneratedValueProblem(expected: format, got: SchemaValidator.describe(value)) }
        guard let date = parse(text) else { return GeneratedValueProblem(expected: format, got: GeneratedValueProblem.quoted(text)) }
        let offset = date.timeIntervalSince(context.serverTime)
        guard abs(offset) <= context.tolerance else {
            let minutes = Int(context.tolerance / 60)
            return GeneratedValueProblem(
                expected: "the time of the answer (\(Timestamps.text(context.serverTime)), from its Date header) within \(minutes) minutes",
                got: "\(GeneratedValueProblem.quoted(text)), \(Timestamps.distance(offset)) \(offset < 0 ? "earlier" : "later")")
        }
        return nil
    }

    /// The instant of `YYYY-MM-DDTHH:MM:SS.mmmZ`, exactly that form; nil for anything else (no milliseconds, an offset).
    static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count == 24, b[4] == 0x2D, b[7] == 0x2D, b[10] == UInt8(ascii: "T"), b[13] == 0x3A, b[16] == 0x3A, b[19] == 0x2E,
              b[23] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard (0x30...0x39).contains(b[i]) else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
              let minute = number(14..<16), let second = number(17..<19), let millis = number(20..<23) else { return nil }
        return UTCTime.date(year: year, month: month, day: day, hour: hour, minute: minute, second: second, millisecond: millis)
    }
}

/// How reports write an instant and a distance between two.
enum Timestamps {
    static func text(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    static func distance(_ seconds: TimeInterval) -> String {
        let s = Int(abs(seconds).rounded())
        if s >= 86_400 { return "\(s / 86_400) d \(s % 86_400 / 3600) h" }
        if s >= 3600 { return "\(s / 3600) h \(s % 3600 / 60) min" }
        return "\(s / 60) min \(s % 60) s"
    }
}
