/// `YYYY-MM-DD` dates, the `date` format of the schemas and of the backend's `lastSeenDate`.
public enum CalendarDate {
    /// Whether `text` is `YYYY-MM-DD` in ASCII digits naming a real day (leap years respected, no 2025-02-30).
    public static func isValid(_ text: String) -> Bool {
        // By hand rather than a regex: every create checks a date, and a regex costs more than the whole check.
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), (1...12).contains(month), day >= 1
        else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }
}
