import ContractKit
import Foundation
import Testing
@testable import Exploration

/// Which rules a generated value exercises is read from the rules the model compiles, so exploration and the model
/// never disagree on what a rule means (issue 44: one rule evaluator).
@Suite struct RuleCheckTests {
    static let dateSchema: JSONValue = .object(JSONObject([
        ("type", "string"),
        ("pattern", "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"),
        ("x-check", "javascript-date-not-after-today"),
    ]))

    static func keywords(_ value: JSONValue?, _ schema: JSONValue, required: Bool = false, today: String) -> [String] {
        let rule = PropertyRule.compiled("field", schema: schema, required: required, validator: SchemaValidator())
        return RuleCheck.keywords(value, rule: rule, schema: schema, required: required, today: today)
    }

    /// JavaScript's `new Date("2026-02-31")` is March 3: after a 1 March today, although the text sorts before it.
    /// The hand-written check compared the texts and counted nothing; the model refuses the value.
    @Test func aDayPastTheMonthsEndIsJudgedAsJavaScriptRollsItOver() {
        #expect(Self.keywords("2026-02-31", Self.dateSchema, today: "2026-03-01") == ["x-check"])
        #expect(Self.keywords("2026-02-28", Self.dateSchema, today: "2026-03-01") == [])
        // Rolled over to a day not after today: the model accepts it, so it exercises nothing.
        #expect(Self.keywords("2026-02-30", Self.dateSchema, today: "2026-03-05") == [])
        #expect(Self.keywords("2026-13-01", Self.dateSchema, today: "2026-03-05") == ["x-check"])
    }

    /// A wrong type is refused for its type alone; an absent required key for `required`.
    @Test func aWrongTypeCountsForTypeOnlyAndAnAbsentKeyForRequired() {
        let schema: JSONValue = .object(JSONObject([("type", "string"), ("maxLength", 3)]))
        #expect(Self.keywords(.number(12345), schema, today: "2026-03-01") == ["type"])
        #expect(Self.keywords(nil, schema, required: true, today: "2026-03-01") == ["required"])
        #expect(Self.keywords(nil, schema, required: false, today: "2026-03-01") == [])
        #expect(Self.keywords("abcd", schema, today: "2026-03-01") == ["maxLength"])
    }

    /// Length rules see the trimmed text when the schema trims, in UTF-16 units; trimming and storing trimmed are
    /// counted when the value changes under them.
    @Test func trimmedRulesSeeTheTrimmedTextInUTF16Units() {
        let schema: JSONValue = .object(JSONObject([("type", "string"), ("maxLength", 3), ("x-trim", true), ("x-stored", "trimmed")]))
        #expect(Self.keywords("  abc  ", schema, today: "2026-03-01") == ["x-trim", "x-stored"])
        #expect(Self.keywords("  abcd ", schema, today: "2026-03-01") == ["maxLength", "x-trim", "x-stored"])
        #expect(Self.keywords("ab🐶", schema, today: "2026-03-01") == ["maxLength"])
    }

    /// A composition counts only when the value breaks it: a value meeting one `anyOf` branch does not.
    @Test func anAnyOfCountsOnlyWhenEveryBranchRefusesTheValue() {
        let schema: JSONValue = .object(JSONObject([
            ("type", "string"),
            ("anyOf", .array([.object(JSONObject([("pattern", "^[0-9]+$")])), .object(JSONObject([("maxLength", 2)]))])),
        ]))
        #expect(Self.keywords("12345", schema, today: "2026-03-01") == [])
        #expect(Self.keywords("ab", schema, today: "2026-03-01") == [])
        #expect(Self.keywords("abc", schema, today: "2026-03-01") == ["anyOf"])
    }

    /// The numeric rules of a query parameter, by the compiled bounds.
    @Test func numberBoundsAndAWholeNumberRule() {
        let schema: JSONValue = .object(JSONObject([("type", "integer"), ("minimum", 1), ("maximum", 10)]))
        #expect(RuleCheck.numberKeywords(0, schema: schema, validator: SchemaValidator()) == ["minimum"])
        #expect(RuleCheck.numberKeywords(10.5, schema: schema, validator: SchemaValidator()) == ["maximum", "type"])
        #expect(RuleCheck.numberKeywords(5, schema: schema, validator: SchemaValidator()) == [])
    }
}
