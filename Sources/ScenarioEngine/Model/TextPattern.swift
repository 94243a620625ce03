import Foundation

/// A regular expression from a scenario file that must match a whole value.
public struct TextPattern: Sendable, Equatable, CustomStringConvertible {
    /// The expression as written.
    public let source: String

    /// Compiles `source`; throws when it is not a valid regular expression.
    public init(_ source: String) throws {
        _ = try NSRegularExpression(pattern: source)
        self.source = source
    }

    /// Whether `text` matches (anchors are the author's choice, as in JSON Schema's `pattern`).
    public func matches(_ text: String) -> Bool {
        // Compiling again is cheap next to an HTTP round trip and keeps the type Sendable.
        guard let regex = try? NSRegularExpression(pattern: source) else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// The text shown to people.
    public var description: String { "/\(source)/" }
}
