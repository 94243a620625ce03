/// Generates the announcements a session's backend holds for details and list reads (issue 21): null optional
/// fields, every status including ACTIVE and CLOSED, single-digit and late-December dates, with and without a photo.
public enum StoredPetGrammar {
    /// Dates where formatting goes wrong: single-digit days, the last days of December (week-based years), a leap day.
    static let dates = ["2025-03-05", "2025-11-09", "2024-12-30", "2025-12-29", "2025-12-31", "2026-01-01", "2024-02-29", "2025-10-30"]

    /// One stored announcement.
    public static func pet(_ d: inout Draw) -> StoredPet {
        let hex = String(d.bits(), radix: 16).leftPadded(16).replacingOccurrences(of: " ", with: "0")
        let tail = String(d.bits(), radix: 16).leftPadded(16).replacingOccurrences(of: " ", with: "0")
        let id = "\(hex.prefix(8))-\(hex.dropFirst(8).prefix(4))-4\(hex.dropFirst(13).prefix(3))-8\(tail.prefix(3))-\(tail.dropFirst(4).prefix(12))"
        let contact = d.int(0...2)
        let date = d.chance(0.7) ? d.pick(dates) : "2025-\(String(d.int(1...12)).leftPadded(2).replacingOccurrences(of: " ", with: "0"))-0\(d.int(1...9))"
        return StoredPet(
            id: id, status: d.pick(["ACTIVE", "MISSING", "FOUND", "CLOSED"]), sex: d.pick(["MALE", "FEMALE"]), lastSeenDate: date,
            breed: d.chance(0.5) ? d.pick(["Beagle", "Maine Coon", "Mixed"]) : nil,
            age: d.chance(0.5) ? d.int(2...15) : nil,
            description: d.chance(0.5) ? d.pick(["Brown collar, friendly", "Scar on the left ear; shy with strangers"]) : nil,
            microchipNumber: d.chance(0.5) ? (0..<d.pick([12, 15])).map { _ in String(d.int(0...9)) }.joined() : nil,
            reward: d.chance(0.5) ? d.pick(["100 PLN", "Reward: 500 PLN for safe return", "$50"]) : nil,
            phone: contact != 1 ? d.pick(["+48 123 456 789", "600700800"]) : nil,
            email: contact != 0 ? d.pick(["owner@example.com", "luna.family@example.com"]) : nil,
            hasPhoto: d.chance(0.6))
    }
}
