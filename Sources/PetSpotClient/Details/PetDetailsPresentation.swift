import Foundation

/// The pet-details screen's display values, derived from an ``Announcement``.
public struct PetDetailsPresentation: Sendable, Hashable {
    /// What the photo area shows.
    public enum Photo: Sendable, Hashable {
        /// Load and show this image.
        case image(URL)
        /// A gray box with ``PetDetailsPresentation/imageUnavailableText``.
        case unavailable
    }

    /// Shown for an absent optional field.
    public static let placeholder = "—"
    /// Shown instead of a missing or failing photo.
    public static let imageUnavailableText = "Image not available"

    /// The announcement's id.
    public let id: String
    /// The photo area.
    public private(set) var photo: Photo
    /// The status badge.
    public let status: StatusBadge
    /// The reward as-is; `nil` hides the badge.
    public let reward: String?
    /// The date of disappearance as `MMM d, yyyy`, e.g. `Nov 18, 2025`.
    public let lastSeenDate: String
    /// The species.
    public let species: String
    /// The breed or "—".
    public let breed: String
    /// The sex with its symbol, e.g. `♂ Male`.
    public let sex: String
    /// The approximate age, e.g. `3 years`, or "—".
    public let age: String
    /// The microchip as `000-000-000-000`, or "—".
    public let microchipNumber: String
    /// The coordinates last seen at, or "—".
    public let location: String
    /// The additional description or "—".
    public let description: String
    /// The phone in full, if given (only available contacts are shown).
    public let phone: String?
    /// The email in full, if given.
    public let email: String?

    /// Maps an announcement; `photoURL` resolves a relative `photoUrl` such as `/images/<id>.jpeg`.
    public init(announcement: Announcement, photoURL: (String) -> URL? = { URL(string: $0) }) {
        id = announcement.id
        if let path = Self.present(announcement.photoUrl), let url = photoURL(path) {
            photo = .image(url)
        } else {
            photo = .unavailable
        }
        status = MutantPresentation.badge(StatusBadge(apiStatus: announcement.status))
        reward = MutantPresentation.reward(Self.present(announcement.reward))
        lastSeenDate = Self.formatDate(announcement.lastSeenDate)
        species = Self.present(announcement.species) ?? Self.placeholder
        breed = Self.present(announcement.breed) ?? Self.placeholder
        sex = Self.formatSex(announcement.sex)
        age = MutantPresentation.age(announcement.age) ?? announcement.age.map { $0 == 1 ? "1 year" : "\($0) years" } ?? Self.placeholder
        microchipNumber = Self.present(announcement.microchipNumber).map { Self.formatMicrochip(MutantPresentation.microchip($0)) } ?? Self.placeholder
        if let latitude = announcement.locationLatitude, let longitude = announcement.locationLongitude {
            location = String(format: "%.5f, %.5f", latitude, longitude)
        } else {
            location = Self.placeholder
        }
        description = Self.present(announcement.description) ?? Self.placeholder
        phone = Self.present(announcement.phone)
        email = Self.present(announcement.email)
    }

    /// The photo could not be loaded: show "Image not available" instead.
    public mutating func photoFailedToLoad() {
        photo = .unavailable
    }

    /// `YYYY-MM-DD` as `MMM d, yyyy` in en_US_POSIX and UTC, so no device setting changes it;
    /// anything unparseable is shown as sent.
    public static func formatDate(_ isoDay: String) -> String {
        guard let day = CalendarDay(iso: isoDay) else { return isoDay }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = CalendarDay.utc
        formatter.dateFormat = "MMM d, yyyy"
        return formatter.string(from: day.startInUTC)
    }

    /// Digits in groups of three joined by dashes (`123-456-789-012`); anything else as sent.
    public static func formatMicrochip(_ number: String) -> String {
        let digits = Array(number)
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return number }
        return stride(from: 0, to: digits.count, by: 3)
            .map { String(digits[$0..<min($0 + 3, digits.count)]) }
            .joined(separator: "-")
    }

    /// `♂ Male` / `♀ Female`; another value is shown as sent.
    public static func formatSex(_ sex: String) -> String {
        switch sex.trimmingCharacters(in: .whitespacesAndNewlines).uppercased() {
        case "MALE", "M": "♂ Male"
        case "FEMALE", "F": "♀ Female"
        default: present(sex) ?? placeholder
        }
    }

    private static func present(_ text: String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return text
    }
}
