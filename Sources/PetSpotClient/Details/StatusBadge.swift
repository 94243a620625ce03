/// The status badge on the pet photo: display text and color.
public struct StatusBadge: Sendable, Hashable {
    /// The badge colors of the design system, kept abstract so no UI framework is needed.
    public enum Color: String, Sendable, Hashable, CaseIterable {
        /// MISSING.
        case red
        /// FOUND.
        case blue
        /// CLOSED and anything unknown.
        case gray
    }

    /// The text, e.g. `MISSING`.
    public let text: String
    /// The badge color.
    public let color: Color

    /// Creates a badge.
    public init(text: String, color: Color) {
        self.text = text
        self.color = color
    }

    /// Maps an API status: ACTIVE and MISSING → red MISSING, FOUND → blue, CLOSED → gray;
    /// an unknown status is shown as sent, in gray, rather than guessed.
    public init(apiStatus: String) {
        let status = apiStatus.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
        switch status {
        case "ACTIVE", "MISSING": self.init(text: "MISSING", color: .red)
        case "FOUND": self.init(text: "FOUND", color: .blue)
        case "CLOSED": self.init(text: "CLOSED", color: .gray)
        default: self.init(text: status, color: .gray)
        }
    }
}
