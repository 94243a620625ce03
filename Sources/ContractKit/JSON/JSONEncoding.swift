import Foundation

extension JSONValue {
    /// Serialises the value as compact JSON, or indented with two spaces when `pretty`; object keys keep their order.
    public func serialized(pretty: Bool = false) -> String {
        String(decoding: serializedBytes(pretty: pretty), as: UTF8.self)
    }

    /// The UTF-8 bytes of `serialized(pretty:)`.
    public func data(pretty: Bool = false) -> Data {
        Data(serializedBytes(pretty: pretty))
    }

    /// The UTF-8 bytes of `serialized(pretty:)`, written straight into bytes because servers answer with bytes, not strings.
    public func serializedBytes(pretty: Bool = false) -> [UInt8] {
        bytes(pretty: pretty, signedZero: false)
    }

    /// Compact JSON that writes a negative zero as `-0.0`, not as `JSON.stringify`'s `0`: for a peer that must see the
    /// sign (a client told the user typed -0), since most JSON parsers read `-0` as the integer 0.
    public func serializedKeepingSignedZero() -> String {
        String(decoding: bytes(pretty: false, signedZero: true), as: UTF8.self)
    }

    /// Appends the compact serialisation to `out`: a record is written field by field into one buffer.
    public func appendSerialized(to out: inout [UInt8]) {
        write(to: &out, pretty: false, indent: 0, signedZero: false)
    }

    private func bytes(pretty: Bool, signedZero: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(to: &out, pretty: pretty, indent: 0, signedZero: signedZero)
        return out
    }

    private func write(to out: inout [UInt8], pretty: Bool, indent: Int, signedZero: Bool) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n) where signedZero && n == 0 && n.sign == .minus: out.append(contentsOf: "-0.0".utf8)
        case .number(let n): out.append(contentsOf: Self.format(n).utf8)
        case .string(let s): Self.writeString(s, to: &out)
        case .array(let items):
            if items.isEmpty {
                out.append(contentsOf: "[]".utf8)
                return
            }
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { Self.newline(indent + 1, to: &out) }
                item.write(to: &out, pretty: pretty, indent: indent + 1, signedZero: signedZero)
            }
            if pretty { Self.newline(indent, to: &out) }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            if object.isEmpty {
                out.append(contentsOf: "{}".utf8)
                return
            }
            out.append(UInt8(ascii: "{"))
            for (i, member) in object.members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { Self.newline(indent + 1, to: &out) }
                Self.writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                member.value.write(to: &out, pretty: pretty, indent: indent + 1, signedZero: signedZero)
            }
            if pretty { Self.newline(indent, to: &out) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ indent: Int, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    /// Numbers are written as the real backend's `JSON.stringify` writes them.
    static func format(_ n: Double) -> String {
        if n.rounded() == n && abs(n) < 1e15 { return String(Int64(n)) }
        return JavaScriptNumberText.text(n)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Valid UTF-8 passes through byte by byte; only the quote, the backslash and control characters are escaped.
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case UInt8(ascii: "\n"): out.append(contentsOf: "\\n".utf8)
            case UInt8(ascii: "\r"): out.append(contentsOf: "\\r".utf8)
            case UInt8(ascii: "\t"): out.append(contentsOf: "\\t".utf8)
            case 0..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? container.decode(Double.self) {
            self = .number(n)
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else if let a = try? container.decode([JSONValue].self) {
            self = .array(a)
        } else {
            // Codable dictionaries do not keep order; callers that care parse with `JSONValue(parsing:)`.
            let d = try container.decode([String: JSONValue].self)
            self = .object(JSONObject(d.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .number(let n):
            if let i = intValue { try container.encode(i) } else { try container.encode(n) }
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o):
            try container.encode(Dictionary(o.members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a }))
        }
    }
}
