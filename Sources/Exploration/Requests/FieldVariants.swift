import ContractKit
import ContractModel
import Foundation

/// One value a generated body gives a property: absent (nil) or a JSON value, and how reports show it.
struct FieldVariant: Sendable {
    /// The value, or nil for "leave the property out".
    let value: JSONValue?
    /// `""`, `null`, `absent`, `"a@b.co"`, `255 characters`.
    let label: String
    /// Worth combining with another field's variants (blank, whitespace, absent, valid, one of each format edge).
    let pairs: Bool
    /// The property's stated rules (keywords) this value exercises: breaks, or sits on either side of.
    var exercises: [String] = []
}

/// The values generation tries for one property of a request schema: types, blanks, padding, boundaries, pattern and
/// format edges, enum values and near misses. Which edges apply follows the schema (type, enum, pattern, bounds) and,
/// where a pattern alone says too little, the property's name (email, phone, date, digits).
enum FieldVariants {
    /// Every variant for `name` with `schema`; `valid` is a value the contract's examples give it, `required` whether the
    /// body requires it, `today` (`YYYY-MM-DD`, UTC) the day date checks are bounded by. Each variant names the rules it exercises.
    /// `validator` resolves the schema's `$ref`s when its rules are compiled.
    static func variants(name: String, schema: JSONValue, valid: JSONValue?, required: Bool = false, validator: SchemaValidator,
                         today: String = DayArithmetic.today()) -> [FieldVariant] {
        var found: [FieldVariant] = [FieldVariant(value: nil, label: "absent", pairs: true), variant(.null, pairs: true)]
        let types = typeNames(schema)
        if let valid { found.append(variant(valid, label: "valid " + label(valid), pairs: true)) }
        if types.contains("string") {
            found += [variant("", pairs: true), variant(" ", pairs: true), variant("\t\n", pairs: false)]
            if let text = valid?.stringValue { found.append(variant(.string("  \(text)  "), pairs: true)) }
            found += stringEdges(name: name, schema: schema)
            found += lengthEdges(schema: schema, valid: valid?.stringValue)
            found += dayEdges(schema: schema, name: name, today: today)
            if !types.contains("number"), !types.contains("integer") { found.append(variant(1, pairs: false)) }
        } else {
            // Blank is a wrong type for a number, but a client sends it all the same.
            found.append(variant("", pairs: false))
        }
        if types.contains("number") || types.contains("integer") {
            found += numberEdges(schema: schema, integer: !types.contains("number"), valid: valid?.numberValue)
            if !types.contains("string") { found.append(variant(.string(label(valid ?? 1)), pairs: false)) }
        }
        found += [variant(true, pairs: false), variant([], pairs: false), variant(.object(JSONObject()), pairs: false)]
        var seen = Set<String>()
        let rule = PropertyRule.compiled(name, schema: schema, required: required, validator: validator)
        return found.filter { seen.insert($0.label).inserted }.map { variant in
            var variant = variant
            variant.exercises = RuleCheck.keywords(variant.value, rule: rule, schema: schema, required: required, today: today)
            return variant
        }
    }

    /// Both sides of each length limit in UTF-16 units (JavaScript's `.length`): one unit under, on and over it in plain
    /// text, the same with a character outside the BMP (two units, one Swift character), and, where the rule sees the
    /// value trimmed, padded so only trimming keeps it inside.
    static func lengthEdges(schema: JSONValue, valid: String?) -> [FieldVariant] {
        var found: [FieldVariant] = []
        let trims = schema["x-trim"]?.boolValue == true
        for bound in ["minLength", "maxLength"] {
            guard let limit = schema[bound]?.intValue else { continue }
            for length in [limit - 1, limit, limit + 1] where length >= 0 {
                found.append(sized(text(length: length, like: valid, schema: schema), pairs: false))
                if length >= 2 {
                    found.append(sized(text(length: length - 2, like: valid, schema: schema) + "🐶", pairs: false))
                }
                if trims { found.append(sized("  " + text(length: length, like: valid, schema: schema) + "  ", pairs: false)) }
            }
        }
        return found
    }

    /// Dates around the day bound of a date check (or a date-shaped pattern): yesterday, today and tomorrow in UTC.
    static func dayEdges(schema: JSONValue, name: String, today: String) -> [FieldVariant] {
        let pattern = schema["pattern"]?.stringValue ?? ""
        guard schema["x-check"]?.stringValue == "javascript-date-not-after-today" || pattern.contains("[0-9]{4}-[0-9]{2}")
            || name.lowercased().hasSuffix("date")
        else { return [] }
        var days = [-1, 0, 1].map { variant(.string(DayArithmetic.day(today, adding: $0)), pairs: $0 == 1) }
        if schema["x-trim"]?.boolValue == true { days.append(variant(.string(" \(DayArithmetic.day(today, adding: 1)) "), pairs: false)) }
        return days
    }

    /// Text of exactly `length` UTF-16 units: a valid value grown or cut at the front (an address keeps its domain, digits stay
    /// digits) where the property has a pattern, else `a`s.
    static func text(length: Int, like valid: String?, schema: JSONValue) -> String {
        guard length > 0 else { return "" }
        let hasPattern = schema["pattern"] != nil || schema["allOf"] != nil || schema["format"] != nil
        guard hasPattern, let valid, let first = valid.unicodeScalars.first, first.isASCII, valid.unicodeScalars.allSatisfy(\.isASCII) else {
            return String(repeating: "a", count: length)
        }
        if valid.count >= length { return String(valid.suffix(length)) }
        return String(repeating: String(first), count: length - valid.count) + valid
    }

    /// The enum values, each near miss, and the edges of the pattern and length rules.
    private static func stringEdges(name: String, schema: JSONValue) -> [FieldVariant] {
        var found: [FieldVariant] = []
        if let values = schema["enum"]?.arrayValue?.compactMap(\.stringValue) {
            for value in values {
                found += [variant(.string(value), pairs: true), variant(.string(value.lowercased()), pairs: false),
                          variant(.string(value + "X"), pairs: false), variant(.string(" \(value) "), pairs: false)]
            }
            found.append(variant("UNKNOWN", pairs: true))
        }
        let pattern = schema["pattern"]?.stringValue ?? ""
        let lower = name.lowercased()
        if lower.contains("email") || pattern.contains("@") || schema["format"]?.stringValue == "email" {
            found += [
                "owner@example.com", "first+tag@example.com", "OWNER@EXAMPLE.COM", "nodot@example", "@example.com", "owner@",
                "owner", "two@@example.com", "with space@example.com", "a@b.c", "zoë@example.com", " owner@example.com ",
            ].map { variant(.string($0), pairs: $0 == "nodot@example" || $0 == "first+tag@example.com") }
            found.append(variant("zoe\u{308}@example.com", label: "an NFD address (e + combining diaeresis)", pairs: false))
            found.append(variant("\u{FF4F}wner@example.com", label: "a full-width letter in an address", pairs: false))
            for length in [64, 254, 255, 320] { found.append(sized(email(length: length), pairs: length >= 254)) }
        } else if lower.contains("phone") {
            found += ["(555) 123-4567", "+48 123 456 789", "555-CALL-NOW", "call me", "-", "1", "+", "١٢٣", "x1"]
                .map { variant(.string($0), pairs: $0 == "call me" || $0 == "(555) 123-4567") }
            found.append(sized(String(repeating: "1", count: 100), pairs: false))
        } else if pattern.contains("[0-9]{4}-[0-9]{2}") || lower.hasSuffix("date") {
            found += ["2025-02-28", "2024-02-29", "2025-02-29", "2025-02-32", "2025-13-01", "2025-00-10", "2999-01-01",
                      "25-01-01", "2025-1-1", "2025/01/01", "2025-01-01T10:00:00Z", " 2025-01-01 "]
                .map { variant(.string($0), pairs: $0 == "2999-01-01") }
        } else if pattern.contains("[0-9]+") {
            found += ["0", "007", "12a", "1 2", "-1", "1.5", "١٢٣", String(repeating: "9", count: 40)]
                .map { variant(.string($0), pairs: $0 == "12a") }
            found += EdgeValues.lookAlikeDigits.map { variant(.string($0), label: "look-alike digits \(label(.string($0)))", pairs: false) }
        } else if pattern == "\\S" {
            found += ["x", " x ", "\u{00A0}", "DOG"].map { variant(.string($0), pairs: false) }
        }
        if pattern.isEmpty, schema["enum"] == nil {
            found += ["<b>bold</b>", "a < b > c", "Zoë 🐶", "line\nbreak"].map { variant(.string($0), pairs: false) }
            found += EdgeValues.unicodeTexts.map { variant(.string($0.text), label: $0.label, pairs: false) }
            found += EdgeValues.everyFieldLengths.map { sized(String(repeating: "a", count: $0), pairs: false) }
        }
        return found
    }

    /// Both sides of each bound, zero, fractions, huge values.
    private static func numberEdges(schema: JSONValue, integer: Bool, valid: Double?) -> [FieldVariant] {
        var numbers: [Double] = [0, -1, 1.5, 1e308, 9_007_199_254_740_992] + EdgeValues.numbers
        if let valid, !integer { numbers.append(valid + EdgeValues.manyDecimals) }
        for bound in ["minimum", "maximum"] {
            guard let limit = schema[bound]?.numberValue else { continue }
            numbers += [limit - 1, limit - 0.000001, limit, limit + 0.000001, limit + 1]
        }
        if integer { numbers += [1, 2, 2_147_483_648] }
        return numbers.map { number in
            // -0 and 0 are equal numbers but not the same JSON: the label keeps them apart.
            let label = number == 0 && number.sign == .minus ? "-0" : nil
            return variant(.number(number), label: label, pairs: schema["minimum"]?.numberValue == number || schema["maximum"]?.numberValue == number)
        }
    }

    /// An address of exactly `length` characters: `aaa…@example.com`.
    static func email(length: Int) -> String {
        let domain = "@example.com"
        return String(repeating: "a", count: max(1, length - domain.count)) + domain
    }

    private static func typeNames(_ schema: JSONValue) -> Set<String> {
        if let name = schema["type"]?.stringValue { return [name] }
        if let names = schema["type"]?.arrayValue?.compactMap(\.stringValue) { return Set(names) }
        return schema["enum"] != nil ? ["string"] : ["string", "number"]
    }

    private static func variant(_ value: JSONValue, label: String? = nil, pairs: Bool) -> FieldVariant {
        FieldVariant(value: value, label: label ?? Self.label(value), pairs: pairs)
    }

    private static func sized(_ text: String, pairs: Bool) -> FieldVariant {
        let units = text.utf16.count == text.count ? "" : ", \(text.utf16.count) UTF-16 units"
        return FieldVariant(value: .string(text), label: "\(text.count) characters\(units) (\(label(.string(String(text.suffix(16))))) at the end)", pairs: pairs)
    }

    /// How a report shows a value: JSON, cut short when long.
    static func label(_ value: JSONValue) -> String {
        let text = String(decoding: value.data(), as: UTF8.self)
        return text.count > 60 ? "\(text.prefix(40))… (\(value.stringValue?.count ?? text.count) characters)" : text
    }
}
