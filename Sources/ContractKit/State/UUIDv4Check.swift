/// `uuid-v4`: a random UUID as RFC 9562 writes it, in lower case: the version nibble `4`, the variant nibble `8`–`b`.
enum UUIDv4Check {
    static let expected = "a lower-case version 4 UUID (version nibble 4, variant nibble 8, 9, a or b)"

    static func problem(_ value: JSONValue) -> GeneratedValueProblem? {
        guard let text = value.stringValue else { return GeneratedValueProblem(expected: expected, got: SchemaValidator.describe(value)) }
        let bytes = Array(text.utf8)
        let hex = { (b: UInt8) in (0x30...0x39).contains(b) || (0x61...0x66).contains(b) }
        guard bytes.count == 36 else { return GeneratedValueProblem(expected: expected, got: GeneratedValueProblem.quoted(text)) }
        for (index, byte) in bytes.enumerated() {
            let ok: Bool
            switch index {
            case 8, 13, 18, 23: ok = byte == UInt8(ascii: "-")
            case 14: ok = byte == UInt8(ascii: "4")
            case 19: ok = [UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b")].contains(byte)
            default: ok = hex(byte)
            }
            if !ok { return GeneratedValueProblem(expected: expected, got: GeneratedValueProblem.quoted(text)) }
        }
        return nil
    }
}
