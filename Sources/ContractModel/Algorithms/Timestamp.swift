import ContractKit
import Foundation

/// The real backend's timestamp text: ISO 8601 in UTC with milliseconds, e.g. `2025-11-19T10:00:00.000Z`.
public enum Timestamp {
    /// `date` formatted like `2025-11-19T10:00:00.000Z`.
    public static func string(from date: Date) -> String {
        // Whole milliseconds, truncated like JavaScript's Date.
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let (days, msOfDay) = floorDivision(millis, 86_400_000)
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        var text: [UInt8] = []
        text.reserveCapacity(24)
        func digits(_ value: Int64, _ count: Int) {
            var divisor: Int64 = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = abs(value)
            if value < 0 { text.append(UInt8(ascii: "-")) }
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(year, 4)
        text.append(UInt8(ascii: "-"))
        digits(month, 2)
        text.append(UInt8(ascii: "-"))
        digits(day, 2)
        text.append(UInt8(ascii: "T"))
        digits(msOfDay / 3_600_000, 2)
        text.append(UInt8(ascii: ":"))
        digits(msOfDay / 60_000 % 60, 2)
        text.append(UInt8(ascii: ":"))
        digits(msOfDay / 1000 % 60, 2)
        text.append(UInt8(ascii: "."))
        digits(msOfDay % 1000, 3)
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    private static func floorDivision(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
        let q = a >= 0 ? a / b : (a - b + 1) / b
        return (q, a - q * b)
    }

    /// The proleptic Gregorian year, month and day of a day count since 1970-01-01 (Howard Hinnant's civil-from-days).
    ///
    /// Arithmetic instead of `Calendar`, because every create and upload stamps two timestamps.
    static func civilDate(daysSinceEpoch: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = daysSinceEpoch + 719_468
        let era = floorDivision(z, 146_097).quotient
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Today's date in UTC as `YYYY-MM-DD`, the bound for "not in the future".
    public static func day(of date: Date) -> String {
        String(string(from: date).prefix(10))
    }

    /// The day JavaScript's `new Date("YYYY-MM-DD")` lands on, as `YYYY-MM-DD`; nil for an invalid date (see
    /// `JavaScriptDate.day`, which the contracts' `javascript-date-not-after-today` check uses).
    public static func javaScriptDay(_ text: String) -> String? {
        JavaScriptDate.day(text)
    }

    /// Whether `text` has the timestamp shape exactly.
    public static func isValid(_ text: String) -> Bool {
        text.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil
    }
}
