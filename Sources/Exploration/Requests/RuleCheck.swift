import ContractKit
import ContractModel
import Foundation

/// Which of a property schema's rules one generated value exercises: the value breaks the rule (so the rule's answer is
/// what a server should give), or, for a rule about what is stored, the value is one it changes. Worked out from the
/// schema itself, so a case is counted for a rule only when it really reaches it: the values just inside a limit are
/// generated too but count for nothing, and a rule no value can break stays at zero in the coverage.
enum RuleCheck {
    /// The keywords of `schema` that `value` (nil: the key is absent) exercises; `today` (`YYYY-MM-DD`) bounds date checks.
    static func keywords(_ value: JSONValue?, schema: JSONValue, required: Bool, today: String) -> [String] {
        let stated = StatedRules.propertyKeywords(schema, required: required)
        guard let value else { return stated.contains("required") ? ["required"] : [] }
        var found: [String] = []
        if !matchesType(value, schema["type"]) {
            found.append("type")
            return found.filter(stated.contains)
        }
        let trims = schema["x-trim"]?.boolValue == true
        if let text = value.stringValue {
            let checked = trims ? JavaScriptText.trim(text) : text
            found += stringKeywords(checked, schema: schema, today: today)
            if trims, checked != text { found += ["x-trim"] }
            if schema["x-stored"]?.stringValue == "trimmed", JavaScriptText.trim(text) != text { found.append("x-stored") }
            if schema["x-sanitize"] != nil, text.contains("<") || text.contains(">") { found.append("x-sanitize") }
            if schema["x-empty-as-null"]?.boolValue == true, text.isEmpty { found.append("x-empty-as-null") }
            // A branch is counted when the value breaks one of its string rules (allOf: any branch; the others: approximated alike).
            for key in ["allOf", "anyOf", "oneOf"] where (schema[key]?.arrayValue ?? []).contains(where: { !stringKeywords(checked, schema: $0, today: today).isEmpty }) {
                found.append(key)
            }
            if let not = schema["not"], stringKeywords(checked, schema: not, today: today).isEmpty, matchesType(value, not["type"]) { found.append("not") }
        }
        if let number = value.numberValue, case .number = value {
            found += numberKeywords(number, schema: schema)
        }
        if let constant = schema["const"], constant != value { found.append("const") }
        return stated.filter(found.contains)
    }

    /// Length, pattern, enum, format and named-check rules for an already trimmed string.
    static func stringKeywords(_ text: String, schema: JSONValue, today: String) -> [String] {
        var found: [String] = []
        let length = text.utf16.count
        if let minimum = schema["minLength"]?.intValue, length < minimum { found.append("minLength") }
        if let maximum = schema["maxLength"]?.intValue, length > maximum { found.append("maxLength") }
        if let pattern = schema["pattern"]?.stringValue, !matches(text, pattern) { found.append("pattern") }
        if let values = schema["enum"]?.arrayValue, !values.contains(.string(text)) { found.append("enum") }
        if let check = schema["x-check"]?.stringValue, exercisesCheck(check, text, today: today) { found.append("x-check") }
        return found
    }

    /// The numeric bounds `number` breaks, and a `multipleOf` it is not a multiple of.
    static func numberKeywords(_ number: Double, schema: JSONValue) -> [String] {
        var found: [String] = []
        if let bound = schema["minimum"]?.numberValue, number < bound { found.append("minimum") }
        if let bound = schema["exclusiveMinimum"]?.numberValue, number <= bound { found.append("exclusiveMinimum") }
        if let bound = schema["maximum"]?.numberValue, number > bound { found.append("maximum") }
        if let bound = schema["exclusiveMaximum"]?.numberValue, number >= bound { found.append("exclusiveMaximum") }
        if let step = schema["multipleOf"]?.numberValue, step > 0, !number.isFinite || (number / step).rounded() != number / step {
            found.append("multipleOf")
        }
        if schema["type"]?.stringValue == "integer", number.rounded() != number { found.append("type") }
        return found
    }

    /// Whether `value` has one of the JSON types `type` allows (any, when no type is stated).
    static func matchesType(_ value: JSONValue, _ type: JSONValue?) -> Bool {
        guard let type else { return true }
        let names = type.stringValue.map { [$0] } ?? type.arrayValue?.compactMap(\.stringValue) ?? []
        if names.isEmpty { return true }
        return names.contains { name in
            switch (name, value) {
            case ("string", .string), ("boolean", .bool), ("null", .null), ("array", .array), ("object", .object), ("number", .number): return true
            case ("integer", .number): return true
            default: return false
            }
        }
    }

    /// Whether `text` breaks a named check: for the day check, a date after today (text order is day order for
    /// `YYYY-MM-DD`; a day that does not exist, such as the 32nd, fails it too, as JavaScript's `Date` does).
    private static func exercisesCheck(_ check: String, _ text: String, today: String) -> Bool {
        switch check {
        case "javascript-date-not-after-today":
            guard text.utf16.count == 10 else { return false }
            let parts = text.split(separator: "-").compactMap { Int($0) }
            if parts.count == 3, !(1...12).contains(parts[1]) || !(1...31).contains(parts[2]) { return true }
            return text > today
        default:
            return false
        }
    }

    private static let validator = SchemaValidator()

    /// Whether `pattern` (unanchored, as JSON Schema) finds a match in `text`, by the contracts' own pattern engine.
    static func matches(_ text: String, _ pattern: String) -> Bool {
        validator.isValid(.string(text), against: .object(["pattern": .string(pattern)]))
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
