/// The seed line behind each check of a sent create body (`SentReportCheck`): the check is as strict as this line and no
/// stricter, and a failed check quotes it so the reader sees which requirement the client broke.
enum SentValueRule: String, CaseIterable {
    case status, lastSeenDate, species, sex, locationLatitude, locationLongitude, microchipNumber, description
    case breed, petName, age, reward, email, phone

    /// The seed file and requirement id, and what that line makes strict.
    var citation: String {
        switch self {
        case .status:
            return "the payload's status is \"MISSING\" for a missing-pet report (seed 001 Key Entities \"AnnouncementCreatePayload\": status (\"MISSING\"))"
        case .lastSeenDate:
            return "lastSeenDate is the calendar day the user picked, sent as YYYY-MM-DD whatever the device's time zone (petspot-api createAnnouncement; seed 004 FR-003)"
        case .species, .sex:
            return "the payload carries the step-3 \(rawValue) (seed 001 Key Entities \"AnnouncementCreatePayload\"); no seed line fixes its spelling, so any case and surrounding whitespace pass"
        case .locationLatitude, .locationLongitude:
            return "the payload carries the location the user gave as numbers (seed 001 FR-003 step 1 \"location\", Key Entities \"AnnouncementCreatePayload\"; seed 004 latitude/longitude inputs)"
        case .microchipNumber, .description:
            return "an entered \(rawValue) is sent (seed 001 FR-003 step 1 \"chip, description\", Key Entities \"AnnouncementCreatePayload\": \(rawValue) (optional)); surrounding whitespace is free"
        case .breed, .petName, .age:
            return "\(rawValue) is not in the seeds' payload (seed 001 Key Entities \"AnnouncementCreatePayload\"), so it may be left out, but when sent it must be what the user entered"
        case .reward:
            return "the reward is stored verbatim (seed 001 FR-006: \"store text verbatim in session\")"
        case .email:
            return "the email is case-insensitive and trimmed (seed 001 FR-005, Assumptions \"Email validation\"), so any case and surrounding whitespace pass"
        case .phone:
            return "the phone is digits with a leading \"+\", its formatting kept in the UI only (seed 001 FR-004, Assumptions \"Phone validation\"), so any formatting of the same digits passes"
        }
    }

    /// The rule of a mismatch subject `sent NAME of #N`, `nil` for any other subject.
    static func forSubject(_ subject: String) -> SentValueRule? {
        guard subject.hasPrefix("sent "), let end = subject.range(of: " of #") else { return nil }
        return SentValueRule(rawValue: String(subject[subject.index(subject.startIndex, offsetBy: 5)..<end.lowerBound]))
    }
}
