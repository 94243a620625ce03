import Foundation

/// Reads the members of one JSON object of a user-written file, collecting a `LintProblem` for every
/// unknown key, missing required key and wrongly typed value instead of stopping at the first.
struct ObjectReader {
    let file: String
    let pointer: String
    let object: JSONObject

    /// A reader for `value`, or nil (with a problem recorded) when it is not an object.
    init?(_ value: JSONValue, file: String, pointer: String, what: String, problems: inout [LintProblem]) {
        guard case .object(let object) = value else {
            problems.append(LintProblem(file: file, pointer: pointer,
                message: "\(what) must be an object, found \(SchemaValidator.describe(value))"))
            return nil
        }
        self.file = file
        self.pointer = pointer
        self.object = object
    }

    func at(_ key: String) -> String { JSONPointer.appending(pointer, key) }

    /// Records unknown keys (listing the allowed ones) and missing required keys.
    func checkKeys(allowed: [String], required: [String], what: String, problems: inout [LintProblem]) {
        for key in object.keys where !allowed.contains(key) {
            let guess = allowed.first { object[$0] == nil && Self.editDistance($0.lowercased(), key.lowercased()) <= 2 }
            let hint = guess.map { " (did you mean \"\($0)\"?)" } ?? ""
            problems.append(LintProblem(file: file, pointer: at(key),
                message: "unknown key \"\(key)\" in \(what)\(hint); allowed keys: \(allowed.joined(separator: ", "))"))
        }
        for key in required where object[key] == nil {
            problems.append(LintProblem(file: file, pointer: pointer, message: "\(what) is missing the required key \"\(key)\""))
        }
    }

    /// Levenshtein distance, for "did you mean" hints on misspelt keys.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    func string(_ key: String, problems: inout [LintProblem]) -> String? {
        guard let value = object[key] else { return nil }
        guard let text = value.stringValue else {
            problems.append(LintProblem(file: file, pointer: at(key),
                message: "\(key) must be a string, found \(SchemaValidator.describe(value))"))
            return nil
        }
        return text
    }

    /// A string that may also be JSON null (null reads as nil without a problem).
    func optionalString(_ key: String, problems: inout [LintProblem]) -> String? {
        if object[key] == .null { return nil }
        return string(key, problems: &problems)
    }

    func int(_ key: String, minimum: Int = Int.min, problems: inout [LintProblem]) -> Int? {
        guard let value = object[key] else { return nil }
        guard let n = value.intValue, n >= minimum else {
            problems.append(LintProblem(file: file, pointer: at(key),
                message: "\(key) must be an integer\(minimum == Int.min ? "" : " of at least \(minimum)"), found \(SchemaValidator.describe(value))"))
            return nil
        }
        return n
    }

    func bool(_ key: String, problems: inout [LintProblem]) -> Bool? {
        guard let value = object[key] else { return nil }
        guard let b = value.boolValue else {
            problems.append(LintProblem(file: file, pointer: at(key),
                message: "\(key) must be true or false, found \(SchemaValidator.describe(value))"))
            return nil
        }
        return b
    }

    /// An object of strings (e.g. example headers); non-string members are problems.
    func stringMap(_ key: String, problems: inout [LintProblem]) -> [String: String] {
        guard let value = object[key] else { return [:] }
        guard case .object(let members) = value else {
            problems.append(LintProblem(file: file, pointer: at(key),
                message: "\(key) must be an object of strings, found \(SchemaValidator.describe(value))"))
            return [:]
        }
        var out: [String: String] = [:]
        for (name, item) in members {
            if let text = item.stringValue {
                out[name] = text
            } else {
                problems.append(LintProblem(file: file, pointer: JSONPointer.appending(at(key), name),
                    message: "\(name) must be a string, found \(SchemaValidator.describe(item))"))
            }
        }
        return out
    }
}
