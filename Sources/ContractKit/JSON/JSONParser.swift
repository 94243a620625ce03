import Foundation

/// A JSON syntax error with the 1-based line and column where parsing stopped.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line of the offending character.
    public let line: Int
    /// 1-based column of the offending character.
    public let column: Int
    /// What was wrong, written for a person.
    public let reason: String

    public var description: String { "line \(line), column \(column): \(reason)" }
}

extension JSONValue {
    /// Parses UTF-8 JSON text, keeping object key order.
    public init(parsing data: Data) throws(JSONSyntaxError) {
        try self.init(parsing: [UInt8](data))
    }

    /// Parses UTF-8 JSON bytes, keeping object key order.
    public init(parsing bytes: [UInt8]) throws(JSONSyntaxError) {
        var parser = JSONParser(bytes: bytes)
        self = try parser.parseDocument()
    }

    /// Parses JSON text, keeping object key order.
    public init(parsing text: String) throws(JSONSyntaxError) {
        try self.init(parsing: Data(text.utf8))
    }
}

/// A recursive-descent parser over UTF-8 bytes; written by hand because Foundation's parser loses key order.
struct JSONParser {
    let bytes: [UInt8]
    var position = 0
    var depth = 0
    /// Whether a lone surrogate escape is malformed or U+FFFD (`service.json`'s `bodyParser.loneSurrogates`).
    var loneSurrogates = LoneSurrogatePolicy.refuse
    static let maximumDepth = 512

    init(bytes: [UInt8]) {
        self.bytes = bytes
        // Skip a UTF-8 byte order mark.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        guard position < bytes.count else { throw error("the document is empty; expected a JSON value") }
        let value = try parseValue()
        skipWhitespace()
        if position < bytes.count { throw error("unexpected \(describeCurrent()) after the end of the JSON value") }
        return value
    }

    func error(_ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
        let end = min(offset ?? position, bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<end where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        // Count characters, not bytes, for the column.
        let column = (String(decoding: bytes[lineStart..<end], as: UTF8.self).count) + 1
        return JSONSyntaxError(line: line, column: column, reason: reason)
    }

    func describeCurrent() -> String {
        guard position < bytes.count else { return "end of input" }
        let b = bytes[position]
        if b >= 0x20 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return String(format: "byte 0x%02X", b)
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        guard position < bytes.count else { throw error("unexpected end of input; expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected \(describeCurrent()); expected a value")
        }
    }

    mutating func expectLiteral(_ literal: String) throws(JSONSyntaxError) {
        let utf8 = Array(literal.utf8)
        guard bytes.count - position >= utf8.count, Array(bytes[position..<position + utf8.count]) == utf8 else {
            throw error("unexpected \(describeCurrent()); expected '\(literal)'")
        }
        position += utf8.count
    }

    mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    }

    mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        position += 1
        var object = JSONObject()
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()); expected a member name in double quotes")
            }
            let keyStart = position
            let key = try parseString()
            if object[key] != nil { throw error("duplicate member name \"\(key)\"", at: keyStart) }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()); expected ':' after member name")
            }
            position += 1
            object[key] = try parseValue()
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of input; expected ',' or '}'") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(object)
            }
            throw error("unexpected \(describeCurrent()); expected ',' or '}'")
        }
    }

    mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        position += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(items)
        }
        while true {
            items.append(try parseValue())
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of input; expected ',' or ']'") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(items)
            }
            throw error("unexpected \(describeCurrent()); expected ',' or ']'")
        }
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        position += 1
        // Most strings have no escapes: decode them in one step instead of scalar by scalar.
        var end = position
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            defer { position = end + 1 }
            return String(decoding: bytes[position..<end], as: UTF8.self)
        }
        // The text so far as UTF-8: a run between escapes is decoded (and repaired) on its own, as a String would, then
        // copied; appending to a UnicodeScalarView instead went scalar by scalar (issue 29: a fifth of a large create).
        var scalars = StringBytes()
        var runStart = position
        func flush(_ parser: JSONParser, _ scalars: inout StringBytes, upTo end: Int) {
            if end > runStart {
                scalars.append(contentsOf: String(decoding: parser.bytes[runStart..<end], as: UTF8.self))
            }
        }
        while position < bytes.count {
            let b = bytes[position]
            if b == UInt8(ascii: "\"") {
                flush(self, &scalars, upTo: position)
                position += 1
                return scalars.string
            }
            if b < 0x20 { throw error("control character in string; escape it") }
            if b == UInt8(ascii: "\\") {
                flush(self, &scalars, upTo: position)
                position += 1
                guard position < bytes.count else { break }
                let e = bytes[position]
                position += 1
                switch e {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800...0xDBFF).contains(code) {
                        if loneSurrogates == .replace, !followedByLowSurrogateEscape() {
                            // JSON.parse keeps the lone unit; the next escape, if any, is read on its own.
                            scalars.append(LoneSurrogatePolicy.replacement)
                            runStart = position
                            continue
                        }
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                            bytes[position + 1] == UInt8(ascii: "u")
                        else { throw error("unpaired UTF-16 surrogate in \\u escape") }
                        position += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid UTF-16 low surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        guard loneSurrogates == .replace else { throw error("unpaired UTF-16 surrogate in \\u escape") }
                        code = LoneSurrogatePolicy.replacement.value
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                    scalars.append(scalar)
                default:
                    position -= 1
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
                }
                runStart = position
                continue
            }
            position += 1
        }
        throw error("unterminated string; expected '\"'")
    }

    /// Whether the next six bytes are a `\uXXXX` escape of a low surrogate (so a high one before it has its pair).
    func followedByLowSurrogateEscape() -> Bool {
        guard position + 6 <= bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else { return false }
        var probe = self
        probe.position += 2
        guard let low = try? probe.parseHex4() else { return false }
        return (0xDC00...0xDFFF).contains(low)
    }

    mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[position]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value * 16 + digit
            position += 1
        }
        return value
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.position
            while p.position < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.position]) {
                p.position += 1
            }
            return p.position - s
        }
        let intStart = position
        let intDigits = digits(&self)
        if intDigits == 0 { throw error("invalid number; expected a digit") }
        if intDigits > 1 && bytes[intStart] == UInt8(ascii: "0") { throw error("leading zeros are not allowed", at: intStart) }
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            position += 1
            if digits(&self) == 0 { throw error("invalid number; expected a digit after '.'") }
        }
        if position < bytes.count && (bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")) {
            position += 1
            if position < bytes.count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) {
                position += 1
            }
            if digits(&self) == 0 { throw error("invalid number; expected a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error("number out of range", at: start) }
        return .number(value)
    }
}

/// A string being built from valid UTF-8, a byte buffer rather than a `String.UnicodeScalarView`.
private struct StringBytes {
    private var utf8: [UInt8] = []

    mutating func append(contentsOf text: String) { utf8.append(contentsOf: text.utf8) }

    mutating func append(_ scalar: Unicode.Scalar) { UTF8.encode(scalar) { utf8.append($0) } }

    /// The text; the bytes are valid UTF-8, so nothing is repaired.
    var string: String { String(decoding: utf8, as: UTF8.self) }
}
