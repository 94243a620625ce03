/// Last-seen dates around both daylight-saving changes of the time zones a PetSpot client most likely runs in, and in
/// the middle of summer time: a client that turns the picked day into a moment and back with a fixed or wrong offset
/// sends the day before only there (every other generated date is in winter time).
///
/// The zones are fixed, not the machine's, so a seed generates the same sessions everywhere; each date is in the past,
/// as seed 004 FR-003 requires of a last-seen date.
public enum DaylightSavingDates {
    /// The zones whose changes are covered: PetSpot's own market (Europe/Warsaw, as the EU) and North America's rule.
    public static let zones = ["Europe/Warsaw", "America/New_York"]

    /// The calendar days (YYYY-MM-DD) on which `zones` change to or from summer time in 2024 and 2025.
    public static let changes = [
        // Europe/Warsaw: last Sunday of March and of October.
        "2024-03-31", "2024-10-27", "2025-03-30", "2025-10-26",
        // America/New_York: second Sunday of March, first Sunday of November.
        "2024-03-10", "2024-11-03", "2025-03-09", "2025-11-02",
    ]

    /// Days in the middle of summer time in both zones.
    public static let summer = ["2025-07-15", "2024-06-21", "2025-08-31"]

    /// Every generated date: each change, the days either side of it, and the summer days.
    public static let all: [String] = {
        var days: [String] = []
        for change in changes {
            days += [shifted(change, by: -1), change, shifted(change, by: 1)]
        }
        return days + summer
    }()

    /// `day` moved by `offset` days (at most one month end crossed, which is all the changes need).
    static func shifted(_ day: String, by offset: Int) -> String {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return day }
        var (y, m, d) = (parts[0], parts[1], parts[2] + offset)
        let lengths = [31, (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        if d < 1 {
            m -= 1
            if m < 1 { (y, m) = (y - 1, 12) }
            d += lengths[m - 1]
        } else if d > lengths[m - 1] {
            d -= lengths[m - 1]
            m += 1
            if m > 12 { (y, m) = (y + 1, 1) }
        }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(y)-\(two(m))-\(two(d))"
    }
}
