import ContractModel
/// A request path pattern: literal segments, `{name}` or `*` for any one segment, and a trailing `**` for any rest.
public struct PathPattern: Sendable, Hashable, CustomStringConvertible {
    private enum Segment: Hashable {
        case literal(String)
        case any
        case rest
    }

    /// The pattern as written.
    public let description: String
    private let segments: [Segment]

    /// Parses a pattern such as `/api/v1/items/{id}/files`.
    public init(_ text: String) {
        description = text
        segments = text.split(separator: "/", omittingEmptySubsequences: true).map { part in
            if part == "**" { return .rest }
            if part == "*" || (part.hasPrefix("{") && part.hasSuffix("}")) { return .any }
            return .literal(String(part))
        }
    }

    /// Whether `path` (without its query string) matches the pattern.
    public func matches(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        var i = 0
        for segment in segments {
            switch segment {
            case .rest:
                return true
            case .any:
                guard i < parts.count else { return false }
            case .literal(let literal):
                guard i < parts.count, parts[i] == literal else { return false }
            }
            i += 1
        }
        return i == parts.count
    }
}
