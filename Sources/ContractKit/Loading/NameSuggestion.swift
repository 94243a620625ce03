/// The known name closest to a misspelt one, for "did you mean" hints in errors that name an unknown id.
public enum NameSuggestion {
    /// The name in `known` with the smallest edit distance to `name` (case-insensitive; the first on a tie), nil when `known` is empty.
    public static func closest(to name: String, among known: [String]) -> String? {
        let lowered = name.lowercased()
        return known.min { ObjectReader.editDistance($0.lowercased(), lowered) < ObjectReader.editDistance($1.lowercased(), lowered) }
    }
}
