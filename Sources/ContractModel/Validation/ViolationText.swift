import ContractKit

/// Short renderings of values inside violation and mismatch messages (the validator's and `verify`'s).
public enum ViolationText {
    /// A single-line rendering of a JSON value (or its absence), cut at 120 characters.
    public static func describe(_ value: JSONValue?) -> String {
        guard let value else { return "nothing (absent)" }
        if case .string(let text) = value, let end = text.index(text.startIndex, offsetBy: longText, limitedBy: text.endIndex),
           end < text.endIndex {
            // Only the start of a long string is serialized and counted: the cut keeps 117 characters, and these many
            // characters serialize to far more (an escape takes at least two), so the cut text is the same.
            return cut(JSONValue.string(String(text[..<end])).serialized())
        }
        return cut(value.serialized())
    }

    /// The start of a body, for messages.
    public static func excerpt(_ bytes: [UInt8]) -> String {
        if bytes.isEmpty { return "(empty body)" }
        return cut(String(decoding: bytes.prefix(200), as: UTF8.self).replacingOccurrences(of: "\n", with: " "))
    }

    /// The characters of a string value beyond which `describe` serializes only the start.
    static let longText = 1_000

    /// Text cut to 120 characters with an ellipsis.
    public static func cut(_ text: String) -> String {
        text.count > 120 ? String(text.prefix(117)) + "..." : text
    }
}
