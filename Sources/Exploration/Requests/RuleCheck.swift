import ContractKit
import ContractModel
import Foundation

/// Which of a property schema's rules one generated value exercises: the value breaks the rule (so the rule's answer is
/// what a server should give), or, for a rule about what is stored, the value is one it changes. Worked out from the
/// schema itself, so a case is counted for a rule only when it really reaches it: the values just inside a limit are
/// generated too but count for nothing, and a rule no value can break stays at zero in the coverage.
enum RuleCheck {
    /// The keywords of `schema` that `value` (nil: the key is absent) exercises. Which validation rules it breaks is
    /// asked of `rule`, the schema compiled as the model compiles it (so exploration and the model cannot disagree on
    /// what a rule means); what is stored from it (trimmed, sanitised, empty as null) is read from the schema's
    /// storage keywords. `today` (`YYYY-MM-DD`) bounds date checks.
    static func keywords(_ value: JSONValue?, rule: PropertyRule, schema: JSONValue, required: Bool, today: String) -> [String] {
        let stated = StatedRules.propertyKeywords(schema, required: required)
        guard let value else { return stated.contains("required") ? ["required"] : [] }
        let broken = rule.brokenKeywords(value, context: RuleContext(today: today))
        // A value of the wrong type is refused for its type alone: no later rule is reached.
        if broken.contains("type") { return ["type"].filter(stated.contains) }
        var found = broken
        if let text = value.stringValue {
            let trimmed = JavaScriptText.trim(text)
            if schema["x-trim"]?.boolValue == true, trimmed != text { found.append("x-trim") }
            if schema["x-stored"]?.stringValue == "trimmed", trimmed != text { found.append("x-stored") }
            if schema["x-sanitize"] != nil, text.contains("<") || text.contains(">") { found.append("x-sanitize") }
            if schema["x-empty-as-null"]?.boolValue == true, text.isEmpty { found.append("x-empty-as-null") }
        }
        return stated.filter(found.contains)
    }

    /// Whether `value` passes every rule of `schema` standing alone, by the compiled rules.
    static func passes(_ value: JSONValue, schema: JSONValue, validator: SchemaValidator, today: String) -> Bool {
        PropertyRule.compiled("", schema: schema, validator: validator).brokenKeywords(value, context: RuleContext(today: today)).isEmpty
    }

    /// The numeric rules of `schema` (bounds, `multipleOf`, an integer `type`) that `number` breaks, by the compiled rules.
    static func numberKeywords(_ number: Double, schema: JSONValue, validator: SchemaValidator) -> [String] {
        let numeric: Set<String> = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]
        let broken = PropertyRule.compiled("", schema: schema, validator: validator).brokenKeywords(.number(number), context: RuleContext(today: ""))
        var found = broken.filter(numeric.contains)
        if schema["type"]?.stringValue == "integer", number.rounded() != number { found.append("type") }
        return found
    }
}

/// Calendar days as `YYYY-MM-DD` text in UTC, for cases around a date bound.
enum DayArithmetic {
    /// `day` moved by `days` (negative: earlier); `day` itself when it is not a date.
    static func day(_ day: String, adding days: Int) -> String {
        let formatter = Self.formatter()
        guard let date = formatter.date(from: day) else { return day }
        return formatter.string(from: date.addingTimeInterval(Double(days) * 86_400))
    }

    /// Today in UTC.
    static func today(_ now: Date = Date()) -> String {
        formatter().string(from: now)
    }

    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter
    }
}
