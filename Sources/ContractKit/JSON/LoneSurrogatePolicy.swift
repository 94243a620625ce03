/// What a JSON parser does with a `\uXXXX` escape that names half of a UTF-16 surrogate pair with no other half
/// (`"a\ud800b"`).
///
/// RFC 8259 (section 8.2) leaves such text's meaning open, so parsers differ: a strict one refuses the document, while
/// JavaScript's `JSON.parse` (Express's `express.json()`) accepts any escape and hands the route a string holding the lone
/// unit. A Swift `String` cannot hold one; what it becomes is what such a server's storage and answers show: V8 writes a
/// lone surrogate out as U+FFFD whenever the text leaves JavaScript as UTF-8 (a SQLite TEXT column, a hash's input), and
/// a lone unit is one UTF-16 unit long, as U+FFFD is, so length rules count both alike.
public enum LoneSurrogatePolicy: String, Sendable, Equatable, CaseIterable {
    /// The document is malformed (the plain default: the only reading RFC 8259 guarantees to interoperate).
    case refuse
    /// The document is valid; each lone surrogate escape reads as U+FFFD, as stored and echoed by a JavaScript server.
    case replace

    /// The replacement a `replace` policy reads a lone surrogate as.
    static let replacement: Unicode.Scalar = "\u{FFFD}"
}

extension JSONValue {
    /// Parses UTF-8 JSON bytes, keeping object key order, with lone surrogate escapes read as `loneSurrogates` says.
    public init(parsing bytes: [UInt8], loneSurrogates: LoneSurrogatePolicy) throws(JSONSyntaxError) {
        var parser = JSONParser(bytes: bytes)
        parser.loneSurrogates = loneSurrogates
        self = try parser.parseDocument()
    }
}
