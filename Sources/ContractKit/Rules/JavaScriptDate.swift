import Foundation

/// JavaScript's `new Date("YYYY-MM-DD")`, where the real backend's date rule depends on it.
public enum JavaScriptDate {
    /// The day `new Date(text)` lands on for a `YYYY-MM-DD` text, as `YYYY-MM-DD`; nil for an invalid date.
    ///
    /// V8 accepts a month 1...12 and a day 1...31 and lets a day past the month's end roll into the next month
    /// (`2025-02-30` is March 2); anything else is an invalid date. `text` must already have the shape.
    public static func day(_ text: String) -> String? {
        let digits = Array(text.utf8)
        guard digits.count == 10, digits.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || (0x30...0x39).contains($0.element) })
        else { return nil }
        func number(_ range: Range<Int>) -> Int { digits[range].reduce(0) { $0 * 10 + Int($1) - 48 } }
        var (year, month, day) = (number(0..<4), number(5..<7), number(8..<10))
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let length = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        if day > length {
            day -= length
            month += 1
            if month == 13 { (year, month) = (year + 1, 1) }
        }
        func padded(_ value: Int, _ width: Int) -> String {
            let s = String(value)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }
}
