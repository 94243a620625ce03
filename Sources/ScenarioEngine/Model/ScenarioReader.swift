import ContractKit
import ContractModel
import Foundation

/// Reads typed values out of a scenario document, naming the file and JSON pointer of anything unexpected.
struct ScenarioReader: Sendable {
    /// The file name used in problems.
    let file: String

    func problem(_ pointer: String, _ message: String) -> ScenarioProblem {
        ScenarioProblem(file: file, pointer: pointer, message: message)
    }

    /// The value as an object whose keys are all in `allowed`; `required` keys must be present.
    func object(_ value: JSONValue, at pointer: String, allowed: [String], required: [String] = [], what: String)
        throws(ScenarioProblem) -> JSONObject
    {
        guard let object = value.objectValue else {
            throw problem(pointer, "expected \(what) as a JSON object, found \(value.typeName)")
        }
        for key in object.keys where !allowed.contains(key) {
            throw problem(
                JSONPointer.appending(pointer, key),
                "unknown key \"\(key)\" in \(what); expected one of: \(allowed.joined(separator: ", "))")
        }
        for key in required where object[key] == nil {
            throw problem(pointer, "\(what) is missing the required key \"\(key)\"")
        }
        return object
    }

    func string(_ value: JSONValue, at pointer: String, what: String) throws(ScenarioProblem) -> String {
        guard let s = value.stringValue else { throw problem(pointer, "expected \(what) as a string, found \(value.typeName)") }
        return s
    }

    func nonEmptyString(_ value: JSONValue, at pointer: String, what: String) throws(ScenarioProblem) -> String {
        let s = try string(value, at: pointer, what: what)
        if s.trimmingCharacters(in: .whitespaces).isEmpty { throw problem(pointer, "\(what) must not be empty") }
        return s
    }

    func int(_ value: JSONValue, at pointer: String, what: String, range: ClosedRange<Int>? = nil) throws(ScenarioProblem) -> Int {
        guard let n = value.intValue else { throw problem(pointer, "expected \(what) as a whole number, found \(value.typeName)") }
        if let range, !range.contains(n) {
            throw problem(pointer, "\(what) must be between \(range.lowerBound) and \(range.upperBound), found \(n)")
        }
        return n
    }

    func number(_ value: JSONValue, at pointer: String, what: String) throws(ScenarioProblem) -> Double {
        guard let n = value.numberValue else { throw problem(pointer, "expected \(what) as a number, found \(value.typeName)") }
        return n
    }

    func bool(_ value: JSONValue, at pointer: String, what: String) throws(ScenarioProblem) -> Bool {
        guard let b = value.boolValue else { throw problem(pointer, "expected \(what) as true or false, found \(value.typeName)") }
        return b
    }

    func array(_ value: JSONValue, at pointer: String, what: String) throws(ScenarioProblem) -> [JSONValue] {
        guard let a = value.arrayValue else { throw problem(pointer, "expected \(what) as a JSON array, found \(value.typeName)") }
        return a
    }

    func oneOf(_ value: JSONValue, at pointer: String, what: String, choices: [String]) throws(ScenarioProblem) -> String {
        let s = try string(value, at: pointer, what: what)
        guard choices.contains(s) else {
            throw problem(pointer, "unknown \(what) \"\(s)\"; expected one of: \(choices.joined(separator: ", "))")
        }
        return s
    }

    /// A regular expression, compiled now so a bad pattern is a load problem and not a run failure.
    func pattern(_ value: JSONValue, at pointer: String, what: String) throws(ScenarioProblem) -> TextPattern {
        let s = try string(value, at: pointer, what: what)
        do {
            return try TextPattern(s)
        } catch {
            throw problem(pointer, "\(what) \"\(s)\" is not a valid regular expression")
        }
    }

    /// A string that may be written as `{"repeat": "a", "count": 121}` so long inputs stay readable.
    func text(_ value: JSONValue, at pointer: String, what: String) throws(ScenarioProblem) -> String {
        if value.objectValue != nil {
            let o = try object(value, at: pointer, allowed: ["repeat", "count"], required: ["repeat", "count"], what: "a repeated text")
            let unit = try string(o["repeat"] ?? .null, at: JSONPointer.appending(pointer, "repeat"), what: "\"repeat\"")
            let count = try int(o["count"] ?? .null, at: JSONPointer.appending(pointer, "count"), what: "\"count\"", range: 0...100_000)
            return String(repeating: unit, count: count)
        }
        return try string(value, at: pointer, what: what)
    }

    /// An object whose values are all strings (or repeated texts).
    func stringMap(_ value: JSONValue, at pointer: String, what: String, allowedKeys: [String]? = nil) throws(ScenarioProblem) -> [(String, String)] {
        guard let o = value.objectValue else { throw problem(pointer, "expected \(what) as a JSON object, found \(value.typeName)") }
        var result: [(String, String)] = []
        for (key, v) in o {
            let p = JSONPointer.appending(pointer, key)
            if let allowedKeys, !allowedKeys.contains(key) {
                throw problem(p, "unknown key \"\(key)\" in \(what); expected one of: \(allowedKeys.joined(separator: ", "))")
            }
            result.append((key, try text(v, at: p, what: "the value of \"\(key)\"")))
        }
        return result
    }
}
