import Foundation

/// The HTTP `Date` header's IMF-fixdate (RFC 9110, section 5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`.
public enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The instant `text` names, or nil when it is not an IMF-fixdate.
    public static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
              let day = Int(parts[1]), let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3]) else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        return UTCTime.date(year: year, month: month + 1, day: day, hour: time[0], minute: time[1], second: time[2], millisecond: 0)
    }
}

/// A calendar instant in UTC from its fields, checked: nil when a field is out of its range (February 30th included).
enum UTCTime {
    static func date(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
              (0...59).contains(second), (0...999).contains(millisecond) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else { return nil }
        return date.addingTimeInterval(Double(millisecond) / 1000)
    }
}
