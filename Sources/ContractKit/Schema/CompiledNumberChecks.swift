import Foundation

/// The number keywords of one schema, with their bounds already written as the messages show them.
struct CompiledNumberChecks: Sendable {
    var minimum: (Double, String)?
    var maximum: (Double, String)?
    var exclusiveMinimum: (Double, String)?
    var exclusiveMaximum: (Double, String)?
    var multipleOf: (Double, String)?

    var isEmpty: Bool { minimum == nil && maximum == nil && exclusiveMinimum == nil && exclusiveMaximum == nil && multipleOf == nil }

    /// The number keywords of the schema object `s`, each bound with its text as the messages show it.
    init(keywords s: JSONObject) {
        func bound(_ keyword: String) -> (Double, String)? {
            s[keyword]?.numberValue.map { ($0, JSONValue.number($0).serialized()) }
        }
        minimum = bound("minimum")
        maximum = bound("maximum")
        exclusiveMinimum = bound("exclusiveMinimum")
        exclusiveMaximum = bound("exclusiveMaximum")
        multipleOf = bound("multipleOf")
    }

    func check(_ n: Double, at pointer: String, into out: inout [SchemaViolation]) {
        if let (min, text) = minimum, n < min {
            out.append(SchemaViolation(pointer: pointer, keyword: "minimum",
                message: "\(SchemaValidator.subject(pointer)) must be at least \(text), found \(JSONValue.number(n).serialized())"))
        }
        if let (max, text) = maximum, n > max {
            out.append(SchemaViolation(pointer: pointer, keyword: "maximum",
                message: "\(SchemaValidator.subject(pointer)) must be at most \(text), found \(JSONValue.number(n).serialized())"))
        }
        if let (min, text) = exclusiveMinimum, n <= min {
            out.append(SchemaViolation(pointer: pointer, keyword: "exclusiveMinimum",
                message: "\(SchemaValidator.subject(pointer)) must be greater than \(text), found \(JSONValue.number(n).serialized())"))
        }
        if let (max, text) = exclusiveMaximum, n >= max {
            out.append(SchemaViolation(pointer: pointer, keyword: "exclusiveMaximum",
                message: "\(SchemaValidator.subject(pointer)) must be less than \(text), found \(JSONValue.number(n).serialized())"))
        }
        if let (step, text) = multipleOf, step > 0, !ValueCheck.isMultiple(n, of: step) {
            out.append(SchemaViolation(pointer: pointer, keyword: "multipleOf",
                message: "\(SchemaValidator.subject(pointer)) must be a multiple of \(text), found \(JSONValue.number(n).serialized())"))
        }
    }
}
