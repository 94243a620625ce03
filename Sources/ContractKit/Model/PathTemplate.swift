import Foundation

/// A path template such as "/api/v1/announcements/{id}/photos": literal segments and `{name}` parameters.
public struct PathTemplate: Sendable, Equatable, CustomStringConvertible {
    /// One segment of the template.
    public enum Segment: Sendable, Equatable {
        /// Must equal the request's segment.
        case literal(String)
        /// Matches any one non-empty segment and captures it under this name.
        case parameter(String)
    }

    /// The template text.
    public let text: String
    /// The segments between slashes.
    public let segments: [Segment]

    /// Parses `text`; nil when it does not start with "/" or has a malformed `{…}` segment.
    public init?(_ text: String) {
        guard text.hasPrefix("/") else { return nil }
        var segments: [Segment] = []
        for raw in Self.split(text) {
            if raw.hasPrefix("{") || raw.hasSuffix("}") || raw.contains("{") || raw.contains("}") {
                guard raw.hasPrefix("{"), raw.hasSuffix("}"), raw.count > 2 else { return nil }
                let name = String(raw.dropFirst().dropLast())
                guard !name.contains("{"), !name.contains("}") else { return nil }
                segments.append(.parameter(name))
            } else {
                segments.append(.literal(raw))
            }
        }
        self.text = text
        self.segments = segments
    }

    /// How many segments a path has, counted as `match` reads it (query and fragment cut, one trailing slash dropped):
    /// a template matches only paths with as many segments as it has, so a caller matching one path against many
    /// templates counts once and skips the others (nil: not a path, which no template matches).
    public static func segmentCount(of path: String) -> Int? {
        let bytes = path.utf8
        guard bytes.first == UInt8(ascii: "/") else { return nil }
        var slashes = 0, length = 0, endsWithSlash = false
        for byte in bytes.dropFirst() {
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            length += 1
            endsWithSlash = byte == UInt8(ascii: "/")
            if endsWithSlash { slashes += 1 }
        }
        if endsWithSlash {
            length -= 1
            slashes -= 1
        }
        return length == 0 ? 0 : slashes + 1
    }

    /// The parameter names in order.
    public var parameterNames: [String] {
        segments.compactMap { if case .parameter(let n) = $0 { return n } else { return nil } }
    }

    /// How many literal segments there are; a more literal template wins over a more general one.
    public var literalCount: Int {
        segments.filter { if case .literal = $0 { return true } else { return false } }.count
    }

    /// The parameter values when `path` (query string and fragment ignored, one trailing slash tolerated) matches.
    public func match(_ path: String) -> [String: String]? {
        // Every live request is matched against every contract of its method, so this walks the UTF-8 bytes once and
        // allocates only for captured values. Literals compare byte for byte, as Express does (no Unicode equivalence).
        let bytes = path.utf8
        let end = bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        guard bytes.startIndex < end, bytes[bytes.startIndex] == UInt8(ascii: "/") else { return nil }
        var cursor = bytes.index(after: bytes.startIndex)
        var stop = end
        if stop > cursor, bytes[bytes.index(before: stop)] == UInt8(ascii: "/") { stop = bytes.index(before: stop) }
        guard !segments.isEmpty else { return cursor == stop ? [:] : nil }
        var values: [String: String] = [:]
        for (position, segment) in segments.enumerated() {
            guard cursor <= stop else { return nil }
            let partEnd = bytes[cursor..<stop].firstIndex(of: UInt8(ascii: "/")) ?? stop
            let part = bytes[cursor..<partEnd]
            switch segment {
            case .literal(let literal):
                guard part.elementsEqual(literal.utf8) else { return nil }
            case .parameter(let name):
                guard !part.isEmpty else { return nil }
                let value = String(Substring(part))
                // Foundation's decoding only when there is something to decode.
                values[name] = part.contains(UInt8(ascii: "%")) ? (value.removingPercentEncoding ?? value) : value
            }
            if position == segments.count - 1 {
                guard partEnd == stop else { return nil }
            } else {
                guard partEnd < stop else { return nil }
                cursor = bytes.index(after: partEnd)
            }
        }
        return values
    }

    /// `text` with each `{name}` replaced by the percent-encoded value from `values` (missing values stay as they are).
    public func expand(_ values: [String: String]) -> String {
        "/" + segments.map { segment -> String in
            switch segment {
            case .literal(let literal): return literal
            case .parameter(let name):
                guard let value = values[name] else { return "{\(name)}" }
                return value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? value
            }
        }.joined(separator: "/")
    }

    /// The template text.
    public var description: String { text }

    private static func split(_ path: String) -> [String] {
        var body = path.dropFirst()
        if body.hasSuffix("/") { body = body.dropLast() }
        if body.isEmpty { return [] }
        return body.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }
}
