import Foundation

/// Where each JSON pointer of a document starts, as 1-based line and column, for reports that point at a line.
///
/// Built by a separate scan of the text on demand (when a report is written), so the parser that live traffic uses keeps
/// no positions. A member is located at its key, an array item at its first character.
public struct JSONLineIndex: Sendable {
    /// A 1-based line and column (in characters).
    public struct Position: Sendable, Equatable {
        /// 1-based line.
        public let line: Int
        /// 1-based column, counted in characters.
        public let column: Int

        /// A position.
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    private let offsets: [String: Int]
    private let bytes: [UInt8]
    private let lineStarts: [Int]

    /// The index of UTF-8 JSON text; a syntax error ends the scan, keeping the pointers found before it.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
        // A byte order mark is not a column.
        var starts = [bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0]
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") { starts.append(i + 1) }
        lineStarts = starts
        var scan = Scan(parser: JSONParser(bytes: bytes))
        try? scan.value(at: "", depth: 0)
        offsets = scan.offsets
    }

    /// The index of JSON text.
    public init(text: String) {
        self.init(bytes: Array(text.utf8))
    }

    /// Where `pointer` starts, or nil when the document has no such value.
    public func position(of pointer: String) -> Position? {
        offsets[pointer].map(position(atOffset:))
    }

    /// Where `pointer` starts, or where its closest existing ancestor does (a missing property is reported on its object).
    public func nearestPosition(of pointer: String) -> Position? {
        guard var tokens = JSONPointer.tokens(pointer) else { return position(of: "") }
        while true {
            let candidate = tokens.reduce("") { JSONPointer.appending($0, $1) }
            if let found = position(of: candidate) { return found }
            if tokens.isEmpty { return nil }
            tokens.removeLast()
        }
    }

    private func position(atOffset offset: Int) -> Position {
        // The last line start at or before the offset.
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        let column = String(decoding: bytes[lineStarts[low]..<offset], as: UTF8.self).count + 1
        return Position(line: low + 1, column: column)
    }

    /// The walk over the document that records where each pointer starts.
    private struct Scan {
        var parser: JSONParser
        var offsets: [String: Int] = [:]

        mutating func value(at pointer: String, depth: Int) throws(JSONSyntaxError) {
            parser.skipWhitespace()
            if offsets[pointer] == nil { offsets[pointer] = parser.position }
            guard parser.position < parser.bytes.count, depth < JSONParser.maximumDepth else { throw parser.error("unexpected end") }
            switch parser.bytes[parser.position] {
            case UInt8(ascii: "{"): try object(at: pointer, depth: depth)
            case UInt8(ascii: "["): try array(at: pointer, depth: depth)
            default: _ = try parser.parseValue()
            }
        }

        mutating func object(at pointer: String, depth: Int) throws(JSONSyntaxError) {
            parser.position += 1
            parser.skipWhitespace()
            if parser.position < parser.bytes.count, parser.bytes[parser.position] == UInt8(ascii: "}") {
                parser.position += 1
                return
            }
            while true {
                parser.skipWhitespace()
                let keyStart = parser.position
                guard keyStart < parser.bytes.count, parser.bytes[keyStart] == UInt8(ascii: "\"") else { throw parser.error("expected a key") }
                let key = try parser.parseString()
                let child = JSONPointer.appending(pointer, key)
                offsets[child] = keyStart
                parser.skipWhitespace()
                try expect(":")
                try value(at: child, depth: depth + 1)
                parser.skipWhitespace()
                if try closes("}") { return }
            }
        }

        mutating func array(at pointer: String, depth: Int) throws(JSONSyntaxError) {
            parser.position += 1
            parser.skipWhitespace()
            if parser.position < parser.bytes.count, parser.bytes[parser.position] == UInt8(ascii: "]") {
                parser.position += 1
                return
            }
            var index = 0
            while true {
                try value(at: JSONPointer.appending(pointer, index), depth: depth + 1)
                index += 1
                parser.skipWhitespace()
                if try closes("]") { return }
            }
        }

        mutating func expect(_ character: Unicode.Scalar) throws(JSONSyntaxError) {
            guard parser.position < parser.bytes.count, parser.bytes[parser.position] == UInt8(ascii: character) else {
                throw parser.error("expected \(character)")
            }
            parser.position += 1
        }

        /// Consumes `,` (more follows: false) or `closer` (true).
        mutating func closes(_ closer: Unicode.Scalar) throws(JSONSyntaxError) -> Bool {
            guard parser.position < parser.bytes.count else { throw parser.error("unexpected end") }
            let b = parser.bytes[parser.position]
            parser.position += 1
            if b == UInt8(ascii: ",") { return false }
            if b == UInt8(ascii: closer) { return true }
            throw parser.error("expected , or \(closer)")
        }
    }
}
