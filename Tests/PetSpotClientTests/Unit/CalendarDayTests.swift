import Foundation
import Testing
@testable import PetSpotClient

@Suite struct CalendarDayTests {
    @Test func parsesAndPrintsISO() {
        #expect(CalendarDay(iso: "2025-11-18") == CalendarDay(year: 2025, month: 11, day: 18))
        #expect(CalendarDay(iso: "2025-11-18")?.iso == "2025-11-18")
        #expect(CalendarDay(year: 5, month: 1, day: 2)?.iso == "0005-01-02")
    }

    @Test(arguments: ["2025-02-30", "2025-13-01", "2025-1-01", "18-11-2025", "2025/11/18", "", "2025-11-18T00:00:00Z", "２０２５-11-18"])
    func rejectsWhatIsNotADay(_ text: String) {
        #expect(CalendarDay(iso: text) == nil)
    }

    @Test func leapDays() {
        #expect(CalendarDay(year: 2024, month: 2, day: 29) != nil)
        #expect(CalendarDay(year: 2025, month: 2, day: 29) == nil)
    }

    @Test func todayDependsOnTheTimeZone() throws {
        let instant = Date(timeIntervalSince1970: 1_763_600_400) // 2025-11-20T01:00:00Z
        let utc = try #require(TimeZone(identifier: "UTC"))
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        #expect(CalendarDay(containing: instant, in: utc).iso == "2025-11-20")
        #expect(CalendarDay(containing: instant, in: newYork).iso == "2025-11-19")
    }

    @Test func ordersChronologically() {
        #expect(CalendarDay(iso: "2024-12-31")! < CalendarDay(iso: "2025-01-01")!)
        #expect(!(CalendarDay(iso: "2025-01-01")! < CalendarDay(iso: "2025-01-01")!))
    }
}
