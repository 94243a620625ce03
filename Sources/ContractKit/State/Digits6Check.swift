/// `digits-6`: a string of six decimal digits, 100000–999999 (never a leading zero, never a number).
enum Digits6Check {
    static let expected = "a string of 6 digits, 100000 to 999999"

    static func problem(_ value: JSONValue) -> GeneratedValueProblem? {
        guard let text = value.stringValue else { return GeneratedValueProblem(expected: expected, got: SchemaValidator.describe(value)) }
        let bytes = Array(text.utf8)
        guard bytes.count == 6, bytes.allSatisfy({ (0x30...0x39).contains($0) }), bytes[0] != UInt8(ascii: "0") else {
            return GeneratedValueProblem(expected: expected, got: GeneratedValueProblem.quoted(text))
        }
        return nil
    }
}
