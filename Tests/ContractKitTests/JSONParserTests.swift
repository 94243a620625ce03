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
}
