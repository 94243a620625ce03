import Foundation

extension String {
    /// The text without leading and trailing characters of `set`, which must be `.whitespaces` or `.whitespacesAndNewlines`.
    ///
    /// Foundation's trimming costs a bridge on every call; most fields have nothing to trim, which one look at each end tells.
    func trimming(_ set: CharacterSet) -> String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last else { return self }
        guard Self.mayBeWhitespace(first) || Self.mayBeWhitespace(last) else { return self }
        return trimmingCharacters(in: set)
    }

    /// Whether the text is empty or only whitespace and newlines.
    var isBlank: Bool {
        guard let first = unicodeScalars.first else { return true }
        return Self.mayBeWhitespace(first) && trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    /// A cheap superset test of Foundation's whitespace sets: a scalar it says no to is never trimmed.
    private static func mayBeWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? scalar.value <= 0x20 : scalar.properties.isWhitespace || scalar.value == 0x180E
    }
}
