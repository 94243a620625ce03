import Foundation

/// The string keywords of one schema: lengths, `pattern` and `format`.
struct CompiledStringChecks: Sendable {
    var minLength: Int?
    var maxLength: Int?
    var pattern: String?
    /// `pattern` compiled once, for checks built once and kept (a compiled schema): a check then skips the shared cache's
    /// lock and lookup. Nil for checks built per validation, which look the pattern up only when no shortcut answers.
    var compiledPattern: Result<LinearPattern, LinearPatternError>?
    /// Whether `PatternShortcut` knows `pattern`, found once rather than hashed on every check.
    var hasShortcut = false
    var format: SchemaFormat?
    var formatName = ""

    var isEmpty: Bool { minLength == nil && maxLength == nil && pattern == nil && format == nil }

    /// The string keywords of the schema object `s`, read as the validator reads them (an unknown `format` is ignored);
    /// `keep` compiles the pattern now, for a check that is kept and run many times.
    init(keywords s: JSONObject, keep: Bool = false) {
        minLength = s["minLength"]?.intValue
        maxLength = s["maxLength"]?.intValue
        pattern = s["pattern"]?.stringValue
        if keep { compiledPattern = pattern.map(RegexCache.shared.compile) }
        hasShortcut = pattern.map { PatternShortcut.rules[$0] != nil } ?? false
        if let name = s["format"]?.stringValue, let known = SchemaFormat(rawValue: name) {
            format = known
            formatName = name
        }
    }

    func check(_ text: String, at pointer: String, into out: inout [SchemaViolation]) {
        if minLength != nil || maxLength != nil {
            let length = text.unicodeScalars.count
            if let min = minLength, length < min {
                out.append(SchemaViolation(pointer: pointer, keyword: "minLength",
                    message: "\(SchemaValidator.subject(pointer)) must be at least \(min) character\(min == 1 ? "" : "s") long, found \(length)"))
            }
            if let max = maxLength, length > max {
                out.append(SchemaViolation(pointer: pointer, keyword: "maxLength",
                    message: "\(SchemaValidator.subject(pointer)) must be at most \(max) character\(max == 1 ? "" : "s") long, found \(length)"))
            }
        }
        if let pattern {
            let outcome = (hasShortcut ? PatternShortcut.matches(pattern, text) : nil).map { Result<Bool, LinearPatternError>.success($0) }
                ?? (compiledPattern ?? RegexCache.shared.compile(pattern)).map { $0.matches(text) }
            switch outcome {
            case .success(false):
                out.append(SchemaViolation(pointer: pointer, keyword: "pattern",
                    message: "\(SchemaValidator.subject(pointer)) must match the pattern \(pattern), found \(SchemaValidator.describe(.string(text)))"))
            case .failure(let error):
                out.append(SchemaViolation(pointer: pointer, keyword: "pattern",
                    message: "the schema's \(SchemaLinter.patternProblem(pattern, error))"))
            case .success(true):
                break
            }
        }
        if let format, !format.accepts(text) {
            out.append(SchemaViolation(pointer: pointer, keyword: "format",
                message: "\(SchemaValidator.subject(pointer)) must be a valid \(formatName), found \(SchemaValidator.describe(.string(text)))"))
        }
    }
}
