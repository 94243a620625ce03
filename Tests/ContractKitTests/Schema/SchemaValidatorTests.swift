import Foundation
import Testing
@testable import ContractKit

/// One test per keyword: a passing instance, a failing one, and the reported pointer and keyword.
@Suite struct SchemaValidatorTests {
    let validator = SchemaValidator()

    func violations(_ instance: JSONValue, _ schema: JSONValue) -> [SchemaViolation] {
        validator.validate(instance, against: schema)
    }

    /// "pointer keyword" of the single violation, or a list of them when there is not exactly one.
    func only(_ instance: JSONValue, _ schema: JSONValue) -> String {
        let found = violations(instance, schema)
        guard found.count == 1 else { return "\(found.count) violations: \(found)" }
        return "\(found[0].pointer) \(found[0].keyword)"
    }

    @Test func type() {
        #expect(violations("x", ["type": "string"]) == [])
        #expect(violations(1, ["type": "integer"]) == [])
        #expect(violations(1.5, ["type": "number"]) == [])
        #expect(violations(true, ["type": "boolean"]) == [])
        #expect(violations([1], ["type": "array"]) == [])
        #expect(violations([:], ["type": "object"]) == [])
        #expect(violations(nil, ["type": "null"]) == [])
        let v = violations(["a": 1.5], ["properties": ["a": ["type": "integer"]]])
        #expect(v == [SchemaViolation(pointer: "/a", keyword: "type", message: "a must be an integer, found the number 1.5")])
        #expect(only("1", ["type": "number"]) == " type")
        #expect(only(1, ["type": "string"]) == " type")
    }

    @Test func typeUnionWithNull() {
        let schema: JSONValue = ["type": ["string", "null"], "minLength": 2]
        #expect(violations(nil, schema) == [])
        #expect(violations("ab", schema) == [])
        #expect(violations(3, schema).first?.message == "the value must be a string or null, found the number 3")
        #expect(only("a", schema) == " minLength")
    }

    @Test func properties() {
        let schema: JSONValue = ["properties": ["a": ["type": "string"], "b": ["properties": ["c": ["const": 1]]]]]
        #expect(violations(["a": "x", "b": ["c": 1], "z": 0], schema) == [])
        #expect(only(["b": ["c": 2]], schema) == "/b/c const")
        #expect(violations(["a": 1, "b": ["c": 2]], schema).map(\.pointer) == ["/a", "/b/c"])
    }

    @Test func required() {
        let schema: JSONValue = ["properties": ["a": [:], "b": [:]], "required": ["b", "a", "c"]]
        #expect(violations(["a": 1, "b": nil, "c": 2], schema) == [])
        // Missing properties are reported in properties order, then the required names properties does not list.
        #expect(violations([:], schema).map(\.pointer) == ["/a", "/b", "/c"])
        #expect(violations([:], schema).allSatisfy { $0.keyword == "required" })
        #expect(violations(["a": 1, "b": 1], schema).first?.message == "c is required")
    }

    @Test func additionalProperties() {
        let closed: JSONValue = ["properties": ["a": ["type": "string"]], "additionalProperties": false]
        #expect(violations(["a": "x"], closed) == [])
        // Unknown properties come first, in instance order, before property violations.
        #expect(violations(["a": 1, "y": 1, "x/~": 2], closed).map(\.pointer) == ["/y", "/x~1~0", "/a"])
        #expect(violations(["y": 1], closed).first?.keyword == "additionalProperties")
        let typed: JSONValue = ["additionalProperties": ["type": "integer"]]
        #expect(violations(["q": 1], typed) == [])
        #expect(only(["q": "1"], typed) == "/q type")
    }

    @Test func enumKeyword() {
        let schema: JSONValue = ["enum": ["MISSING", "FOUND", 1]]
        #expect(violations("FOUND", schema) == [])
        #expect(violations(1.0, schema) == [])
        #expect(only("ACTIVE", schema) == " enum")
        #expect(violations("ACTIVE", schema).first?.message == #"the value must be one of "MISSING", "FOUND", 1, found the string "ACTIVE""#)
    }

    @Test func constKeyword() {
        #expect(violations(["a": [1]], ["const": ["a": [1]]]) == [])
        #expect(only("okay", ["const": "ok"]) == " const")
        #expect(only(nil, ["const": "ok"]) == " const")
    }

    @Test func pattern() {
        let schema: JSONValue = ["pattern": "[0-9]"]
        #expect(violations("ab1", schema) == [])  // unanchored
        #expect(violations(5, schema) == [])  // applies to strings only
        #expect(only("abc", schema) == " pattern")
        #expect(violations("x", ["pattern": "("]).first?.message.contains("not a valid regular expression") == true)
    }

    @Test func minLengthAndMaxLength() {
        let schema: JSONValue = ["minLength": 2, "maxLength": 3]
        #expect(violations("ab", schema) == [])
        #expect(violations("😀😀", schema) == [])  // code points, not bytes
        #expect(only("a", schema) == " minLength")
        #expect(only("abcd", schema) == " maxLength")
    }

    @Test func minimumAndMaximum() {
        let schema: JSONValue = ["minimum": -90, "maximum": 90]
        #expect(violations(-90, schema) == [])
        #expect(violations(90, schema) == [])
        #expect(only(-90.5, schema) == " minimum")
        #expect(only(91, schema) == " maximum")
        #expect(violations(91, schema).first?.message == "the value must be at most 90, found 91")
        let exclusive: JSONValue = ["exclusiveMinimum": 0, "exclusiveMaximum": 10]
        #expect(violations(5, exclusive) == [])
        #expect(only(0, exclusive) == " exclusiveMinimum")
        #expect(only(10, exclusive) == " exclusiveMaximum")
    }

    @Test func integer() {
        let schema: JSONValue = ["type": "integer", "minimum": 1]
        #expect(violations(3, schema) == [])
        #expect(violations(3.0, schema) == [])
        #expect(only(2.5, schema) == " type")
        #expect(only(0, schema) == " minimum")
    }

    @Test func formatUUID() {
        let schema: JSONValue = ["format": "uuid"]
        #expect(violations("3f1c2a9e-5b7d-4e8a-9c1f-2d3e4f5a6b7c", schema) == [])
        #expect(violations("3F1C2A9E-5B7D-4E8A-9C1F-2D3E4F5A6B7C", schema) == [])
        #expect(only("3f1c2a9e5b7d4e8a9c1f2d3e4f5a6b7c", schema) == " format")
        #expect(only("3f1c2a9e-5b7d-4e8a-9c1f-2d3e4f5a6b7", schema) == " format")
    }

    @Test func formatEmail() {
        let schema: JSONValue = ["format": "email"]
        #expect(violations("a@b.co", schema) == [])
        #expect(only("a@b", schema) == " format")
        #expect(only("a b@c.de", schema) == " format")
    }

    @Test func formatDate() {
        let schema: JSONValue = ["format": "date"]
        #expect(violations("2024-02-29", schema) == [])
        #expect(only("2025-02-29", schema) == " format")
        #expect(only("2025-13-01", schema) == " format")
        #expect(only("2025-1-01", schema) == " format")
        #expect(only("2025-11-19T10:00:00Z", schema) == " format")
        #expect(only("2025-00-10", schema) == " format")
        #expect(only("2025-04-31", schema) == " format")
        #expect(only("2025-04-00", schema) == " format")
        #expect(only("1900-02-29", schema) == " format")
        #expect(violations("2000-02-29", schema) == [])
        #expect(only("２０２５-01-01", schema) == " format")
        #expect(only("2025/01/01", schema) == " format")
        #expect(only("", schema) == " format")
        #expect(CalendarDate.isValid("2025-12-31") && !CalendarDate.isValid("2025-12-31 "))
    }

    @Test func formatURIAndAddresses() {
        let uri: JSONValue = ["format": "uri"]
        #expect(violations("https://example.com/photos/a.jpg?size=2#top", uri) == [])
        #expect(violations("http://[2001:db8::1]:8080/", uri) == [])
        #expect(violations("mailto:someone@example.com", uri) == [])
        #expect(only("/images/a.png", uri) == " format")
        #expect(only("images/a.png", uri) == " format")
        #expect(only("https://example.com/a b", uri) == " format")
        #expect(only("https://example.com/%zz", uri) == " format")
        #expect(only("https://example.com/é", uri) == " format")
        #expect(only("1http://x", uri) == " format")
        let reference: JSONValue = ["format": "uri-reference"]
        #expect(violations("/images/a.png", reference) == [])
        #expect(violations("a.png", reference) == [])
        #expect(violations("", reference) == [])
        #expect(violations("https://example.com/", reference) == [])
        #expect(only("/images/a png", reference) == " format")
        #expect(only("/images/[1]", reference) == " format")
        let ipv4: JSONValue = ["format": "ipv4"]
        #expect(violations("192.0.2.255", ipv4) == [])
        #expect(only("192.0.2.256", ipv4) == " format")
        #expect(only("192.0.02.1", ipv4) == " format")
        #expect(only("192.0.2", ipv4) == " format")
        let ipv6: JSONValue = ["format": "ipv6"]
        for valid in ["2001:db8::1", "::1", "::", "fe80::1:2:3:4", "1:2:3:4:5:6:7:8", "::ffff:192.0.2.1"] {
            #expect(violations(.string(valid), ipv6) == [], "\(valid)")
        }
        for invalid in ["1:2:3:4:5:6:7:8:9", "2001:db8:::1", "1::2::3", "12345::", "g::1", "1:2:3:4:5:6:7"] {
            #expect(only(.string(invalid), ipv6) == " format", "\(invalid)")
        }
    }

    @Test func formatDateTime() {
        let schema: JSONValue = ["format": "date-time"]
        #expect(violations("2025-11-19T10:00:00.000Z", schema) == [])
        #expect(violations("2025-11-19T10:00:00+01:00", schema) == [])
        #expect(only("2025-11-19 10:00:00Z", schema) == " format")
        #expect(only("2025-11-19T25:00:00Z", schema) == " format")
        #expect(only("2025-11-19T10:00:00", schema) == " format")
    }

    @Test func items() {
        let schema: JSONValue = ["items": ["type": "integer"], "minItems": 1, "maxItems": 2]
        #expect(violations([1, 2], schema) == [])
        #expect(violations([1, "x"], schema).map(\.pointer) == ["/1"])
        #expect(only([], schema) == " minItems")
        #expect(only([1, 2, 3], schema) == " maxItems")
        let nested: JSONValue = ["properties": ["data": ["items": ["required": ["id"]]]]]
        #expect(violations(["data": [["id": 1], [:]]], nested).map(\.pointer) == ["/data/1/id"])
    }

    @Test func anyOf() {
        let schema: JSONValue = ["anyOf": [["type": "string", "description": "a string"], ["type": "integer"]]]
        #expect(violations("x", schema) == [])
        #expect(violations(1, schema) == [])
        #expect(only(1.5, schema) == " anyOf")
        #expect(violations(1.5, schema).first?.message.contains("a string") == true)
    }

    @Test func oneOf() {
        let schema: JSONValue = ["oneOf": [["type": "integer"], ["minimum": 5]]]
        #expect(violations(1, schema) == [])
        #expect(violations(5.5, schema) == [])
        #expect(only(7, schema) == " oneOf")  // matches both
        #expect(only(-1.5, schema) == " oneOf")  // matches neither
    }

    @Test func allOfAndNot() {
        let schema: JSONValue = ["allOf": [["minimum": 1], ["maximum": 3]], "not": ["const": 2]]
        #expect(violations(1, schema) == [])
        #expect(only(4, schema) == " maximum")
        #expect(only(2, schema) == " not")
    }

    @Test func booleanSchemas() {
        #expect(violations(1, true) == [])
        #expect(only(1, false) == " false")
        #expect(only(["a": 1], ["properties": ["a": false]]) == "/a false")
    }

    @Test func localReference() {
        let schema: JSONValue = ["$defs": ["id": ["type": "string"]], "properties": ["id": ["$ref": "#/$defs/id"]]]
        #expect(violations(["id": "x"], schema) == [])
        #expect(only(["id": 1], schema) == "/id type")
        #expect(only(1, ["$ref": "#/$defs/missing"]) == " $ref")
    }

    @Test func referencesBetweenFiles() {
        let validator = SchemaValidator(documents: [
            "schemas/A.json": ["properties": ["b": ["$ref": "schemas/B.json#/$defs/n"]]],
            "schemas/B.json": ["$defs": ["n": ["type": "number", "maximum": 1]]],
        ])
        #expect(validator.validate(["b": 1], against: ["$ref": "schemas/A.json"]) == [])
        let found = validator.validate(["b": 2], against: ["$ref": "schemas/A.json"])
        #expect(found.map(\.pointer) == ["/b"])
        #expect(found.map(\.keyword) == ["maximum"])
        #expect(validator.validate(1, against: ["$ref": "schemas/C.json"]).first?.keyword == "$ref")
    }

    @Test func referenceCyclesAreReportedNotFollowedForever() {
        let validator = SchemaValidator(documents: ["loop.json": ["$ref": "loop.json"]])
        #expect(validator.validate(1, against: ["$ref": "loop.json"]).first?.message.contains("loops") == true)
    }

    @Test func canonicalizationRewritesReferencesRelativeToTheContractsFolder() {
        let schema: JSONValue = ["properties": ["a": ["$ref": "Other.json#/x"], "b": ["$ref": "#/$defs/y"]],
                                 "items": ["$ref": "../Root.json"]]
        let canonical = SchemaReference.canonicalize(schema, documentKey: "schemas/This.json")
        #expect(canonical["properties"]?["a"]?["$ref"] == "schemas/Other.json#/x")
        #expect(canonical["properties"]?["b"]?["$ref"] == "schemas/This.json#/$defs/y")
        #expect(canonical["items"]?["$ref"] == "Root.json")
    }

    @Test func pathTemplates() throws {
        let template = try #require(PathTemplate("/api/v1/announcements/{id}/photos"))
        #expect(template.parameterNames == ["id"])
        #expect(template.match("/api/v1/announcements/42/photos") == ["id": "42"])
        #expect(template.match("/api/v1/announcements/42/photos/") == ["id": "42"])
        #expect(template.match("/api/v1/announcements/42/photos?x=1") == ["id": "42"])
        #expect(template.match("/api/v1/announcements/42") == nil)
        #expect(template.match("/api/v1/announcements/42/photo") == nil)
        #expect(template.expand(["id": "a b"]) == "/api/v1/announcements/a%20b/photos")
        #expect(PathTemplate("no-slash") == nil)
        #expect(PathTemplate("/a/x{id}") == nil)
        #expect(PathTemplate("/a/{}") == nil)
        #expect(PathTemplate("/")?.match("/") == [:])
    }

    @Test func parameterValuesAreTypedByTheirSchema() {
        let range = ParameterSpec(name: "range", required: false, schema: ["type": "integer", "minimum": 1], description: nil)
        #expect(range.typedValue("5") == 5)
        #expect(range.typedValue("five") == "five")
        #expect(validator.validate(range.typedValue("0"), against: range.schema).first?.keyword == "minimum")
        #expect(validator.validate(range.typedValue("x"), against: range.schema).first?.keyword == "type")
        let name = ParameterSpec(name: "q", required: false, schema: ["type": "string"], description: nil)
        #expect(name.typedValue("5") == "5")
    }
}
