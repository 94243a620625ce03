import Foundation

/// The real backend's timestamp text: ISO 8601 in UTC with milliseconds, e.g. `2025-11-19T10:00:00.000Z`.
public enum Timestamp {
    /// `date` formatted like `2025-11-19T10:00:00.000Z`.
    public static func string(from date: Date) -> String {
        // Whole milliseconds, truncated like JavaScript's Date.
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        let ms = millis - seconds * 1000
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0,
            c.second ?? 0, Int(ms))
    }

    /// Today's date in UTC as `YYYY-MM-DD`, the bound for "not in the future".
    public static func day(of date: Date) -> String {
        String(string(from: date).prefix(10))
    }

    /// Whether `text` has the timestamp shape exactly.
    public static func isValid(_ text: String) -> Bool {
        text.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil
    }
}
