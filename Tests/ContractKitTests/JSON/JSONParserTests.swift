import Foundation
import Testing
@testable import ContractKit

@Suite struct JSONParserTests {
    @Test func keepsKeyOrder() throws {
        let value = try JSONValue(parsing: #"{"b": 1, "a": [true, null, "x"], "c": {"z": 1.5}}"#)
        #expect(value.objectValue?.keys == ["b", "a", "c"])
        #expect(value["a"] == [true, nil, "x"])
        #expect(value["c"]?["z"] == .number(1.5))
    }

    @Test func reportsLineAndColumn() {
        #expect(throws: JSONSyntaxError(line: 2, column: 8, reason: "unexpected '}'; expected a value")) {
            try JSONValue(parsing: "{\n  \"a\": }")
        }
    }

    @Test func rejectsDuplicateKeysAndTrailingGarbage() {
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: #"{"a":1,"a":2}"#) }
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: "[1] x") }
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: "") }
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: "01") }
    }

    @Test func decodesEscapes() throws {
        #expect(try JSONValue(parsing: #""a\n\u00e9\ud83d\ude00""#) == .string("a\né😀"))
    }

    @Test func roundTripsThroughSerialization() throws {
        let text = #"{"id":"x","n":3,"f":2.5,"list":[],"o":{},"s":"q\"uote"}"#
        #expect(try JSONValue(parsing: text).serialized() == text)
    }

    @Test func stringsWithAndWithoutEscapesDecodeAlike() throws {
        #expect(try JSONValue(parsing: #"["plain ünïcode 🐶", "tab\tin", "", "end\\"]"#)
            == .array(["plain ünïcode 🐶", "tab\tin", "", "end\\"]))
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: "\"raw\ttab\"") }
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: #""unterminated"#) }
        // Invalid UTF-8 is repaired with U+FFFD rather than rejected, on the fast path as on the escape path.
        #expect(try JSONValue(parsing: [0x22, 0x61, 0xFF, 0x22] as [UInt8]) == .string("a\u{FFFD}"))
        #expect(try JSONValue(parsing: [0x22, 0x5C, 0x6E, 0xFF, 0x22] as [UInt8]) == .string("\n\u{FFFD}"))
    }

    @Test func serializationEscapesOnlyWhatJSONRequires() throws {
        let value: JSONValue = ["k\"ey": .string("q\"b\\n\nr\rt\t\u{01}\u{1F}\u{7F}é😀/")]
        let text = value.serialized()
        #expect(text == "{\"k\\\"ey\":\"q\\\"b\\\\n\\nr\\rt\\t\\u0001\\u001f\u{7F}é😀/\"}")
        #expect(try JSONValue(parsing: text) == value)
        #expect(value.serializedBytes() == Array(text.utf8))
        #expect(JSONValue.array([1, 2.5, nil, true]).serialized(pretty: true) == "[\n  1,\n  2.5,\n  null,\n  true\n]")
        #expect(JSONValue.object(["a": ["b": []]]).serialized(pretty: true) == "{\n  \"a\": {\n    \"b\": []\n  }\n}")
    }
}

/// Numbers are written as JavaScript's `JSON.stringify` writes them, since the real backend is JavaScript.
@Suite struct JavaScriptNumberTextTests {
    @Test(arguments: [
        (1e308, "1e+308"), (1e21, "1e+21"), (1e20, "100000000000000000000"), (1e15, "1000000000000000"),
        (123456789012345680000.0, "123456789012345680000"), (0.1, "0.1"), (0.000001, "0.000001"), (1e-7, "1e-7"),
        (1.5e-7, "1.5e-7"), (-2.5e-10, "-2.5e-10"), (52.2297, "52.2297"), (-0.0, "0"), (3, "3"), (1.7976931348623157e308, "1.7976931348623157e+308"),
        (Double.leastNonzeroMagnitude, "5e-324"), (123.456e5, "12345600"), (2.5e25, "2.5e+25"),
    ])
    func numbersAreWrittenAsJavaScriptWritesThem(value: Double, text: String) {
        #expect(JSONValue.number(value).serialized() == text)
    }

    /// The short path (Swift's own text) agrees with the general layout on fractions of every magnitude around its bounds.
    @Test func theShortPathAgreesWithTheGeneralLayout() {
        var values: [Double] = [1e-4, 1e-4.nextDown, 1e-4.nextUp, 1e15.nextDown, 999_999_999_999_999.5, 0.1 + 0.2, 52.2297, -21.0122287]
        // A fixed grid: every decade from 1e-7 to 1e16, a thousand mantissas each, thirds for long expansions.
        for exponent in -7...16 {
            for step in 0..<1000 {
                let value = (1 + Double(step) * 0.008_765_431) * pow(10, Double(exponent))
                values += [value, -value / 3]
            }
        }
        let differing = values.filter { JavaScriptNumberText.text($0) != JavaScriptNumberText.layout($0) }
        #expect(differing.isEmpty, "\(differing.prefix(5))")
    }
}
