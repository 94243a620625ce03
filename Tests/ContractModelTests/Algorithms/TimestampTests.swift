import Foundation
import Testing

@testable import ContractModel

/// The hand-written timestamp and date arithmetic must agree with Foundation's calendar everywhere.
@Suite struct TimestampTests {
    /// Foundation's rendering of the same instant, truncated to whole milliseconds like JavaScript.
    func reference(_ date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        let rest = millis - seconds * 1000
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? .current
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0,
                      c.minute ?? 0, c.second ?? 0, Int(rest))
    }

    @Test func agreesWithFoundationOnEdgesAndOnRandomInstants() {
        var dates = [
            0, -1, -0.001, 0.999, 951_782_400, 951_868_799.999, 4_102_444_800, -2_208_988_800, 1_709_164_800, 253_402_300_799.999,
        ].map { Date(timeIntervalSince1970: $0) }
        var generator = ModelRandom(seed: 42)
        for _ in 0..<2000 {
            dates.append(Date(timeIntervalSince1970: Double(Int64.random(in: -2_208_988_800_000...253_402_300_799_999, using: &generator)) / 1000))
        }
        for date in dates { #expect(Timestamp.string(from: date) == reference(date), "\(date.timeIntervalSince1970)") }
    }

    @Test func civilDatesCoverLeapDaysAndCenturies() {
        func days(_ y: Int, _ m: Int, _ d: Int) -> Int64 {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? .current
            let date = calendar.date(from: DateComponents(year: y, month: m, day: d)) ?? Date(timeIntervalSince1970: 0)
            return Int64((date.timeIntervalSince1970 / 86_400).rounded())
        }
        for (y, m, d) in [(2024, 2, 29), (2000, 2, 29), (1900, 3, 1), (2100, 2, 28), (1970, 1, 1), (1969, 12, 31), (9999, 12, 31)] {
            let civil = Timestamp.civilDate(daysSinceEpoch: days(y, m, d))
            #expect(civil.year == Int64(y) && civil.month == Int64(m) && civil.day == Int64(d), "\(y)-\(m)-\(d)")
        }
    }
}
