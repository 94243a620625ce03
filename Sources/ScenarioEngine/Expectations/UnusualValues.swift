import ContractKit
import ContractModel
import Foundation

/// The values of a served JSON answer that a client is most likely to trip over, read from the answer's contract
/// schema (never from a list of field names): nulls where the schema allows null, values beyond a schema's `enum`,
/// optional keys left out, and the numbers exactly as the backend wrote them.
struct UnusualValues {
    /// The contracts whose schemas (contracts/schemas) describe the answers.
    let contracts: ContractSet

    /// One line per unusual value of `body` against `schema`, e.g. `/photoUrl: null (nullable)`.
    func describe(_ body: JSONValue, rawText: String, schema: JSONValue) -> [String] {
        var lines: [String] = []
        var numbers: [String] = []
        var seen: [String: Int] = [:]
        walk(body, schema: schema, path: "", raw: rawText, lines: &lines, numbers: &numbers, seen: &seen)
        if !numbers.isEmpty { lines.append("numbers as the backend wrote them: " + numbers.joined(separator: ", ")) }
        return lines
    }

    private func walk(_ value: JSONValue, schema: JSONValue, path: String, raw: String, lines: inout [String], numbers: inout [String],
                      seen: inout [String: Int]) {
        let s = resolved(schema)
        switch value {
        case .object(let object):
            let properties = s["properties"]?.objectValue ?? JSONObject()
            let required = Set((s["required"]?.arrayValue ?? []).compactMap(\.stringValue))
            for (name, propertySchema) in properties {
                let at = JSONPointer.appending(path, name)
                guard let member = object[name] else {
                    if !required.contains(name) { lines.append("\(at): absent (optional in the schema)") }
                    continue
                }
                let p = resolved(propertySchema)
                if member.isNull {
                    lines.append("\(at): null" + (types(p).contains("null") ? " (nullable in the schema)" : " (the schema does not allow null)"))
                    continue
                }
                if let allowed = p["enum"]?.arrayValue, !allowed.contains(member) {
                    lines.append("\(at): \(member.serialized()) (beyond the schema's enum: \(allowed.map { $0.serialized() }.joined(separator: ", ")))")
                }
                if case .number = member {
                    let occurrence = seen[name, default: 0]
                    seen[name] = occurrence + 1
                    let text = Self.rawNumber(named: name, occurrence: occurrence, in: raw) ?? member.serialized()
                    numbers.append("\(at) \(text)" + Self.numberRemark(text, types: types(p)))
                }
                walk(member, schema: propertySchema, path: at, raw: raw, lines: &lines, numbers: &numbers, seen: &seen)
            }
        case .array(let items):
            guard let itemSchema = s["items"] else { return }
            for (i, item) in items.enumerated() {
                walk(item, schema: itemSchema, path: JSONPointer.appending(path, i), raw: raw, lines: &lines, numbers: &numbers, seen: &seen)
            }
        default:
            return
        }
    }

    /// The types a schema allows (`type` as a string or a list).
    private func types(_ schema: JSONValue) -> Set<String> {
        if let one = schema["type"]?.stringValue { return [one] }
        return Set((schema["type"]?.arrayValue ?? []).compactMap(\.stringValue))
    }

    /// `schema` with its `$ref` followed into contracts/schemas and its `allOf` parts merged (later parts refine earlier ones).
    func resolved(_ schema: JSONValue, depth: Int = 0) -> JSONValue {
        guard depth < 16, var object = schema.objectValue else { return schema }
        if let ref = object["$ref"]?.stringValue {
            guard let target = contracts.referencedSchema(ref) else { return schema }
            return resolved(target, depth: depth + 1)
        }
        if let parts = object["allOf"]?.arrayValue {
            object["allOf"] = nil
            var merged = object
            for part in parts.map({ resolved($0, depth: depth + 1) }) {
                guard let p = part.objectValue else { continue }
                for (key, value) in p {
                    if key == "properties", let mine = merged["properties"]?.objectValue, let theirs = value.objectValue {
                        var properties = mine
                        for (name, s) in theirs {
                            let before = resolved(properties[name] ?? JSONValue.object(JSONObject()), depth: depth + 1).objectValue ?? JSONObject()
                            var refined = before
                            for (k, v) in resolved(s, depth: depth + 1).objectValue ?? JSONObject() { refined[k] = v }
                            properties[name] = .object(refined)
                        }
                        merged["properties"] = .object(properties)
                    } else if key == "required", let mine = merged["required"]?.arrayValue, let theirs = value.arrayValue {
                        merged["required"] = .array(mine + theirs)
                    } else {
                        merged[key] = value
                    }
                }
            }
            return .object(merged)
        }
        return schema
    }

    /// The text of the `occurrence`-th number written for key `name` in `raw` (0-based), as the backend wrote it.
    static func rawNumber(named name: String, occurrence: Int, in raw: String) -> String? {
        let key = "\"" + name + "\""
        var count = 0
        var search = raw.startIndex..<raw.endIndex
        while let found = raw.range(of: key, range: search) {
            search = found.upperBound..<raw.endIndex
            var i = found.upperBound
            while i < raw.endIndex, raw[i] == " " || raw[i] == "\n" || raw[i] == "\t" || raw[i] == "\r" { i = raw.index(after: i) }
            guard i < raw.endIndex, raw[i] == ":" else { continue }
            i = raw.index(after: i)
            while i < raw.endIndex, raw[i] == " " || raw[i] == "\n" || raw[i] == "\t" || raw[i] == "\r" { i = raw.index(after: i) }
            let start = i
            while i < raw.endIndex, "-+.eE0123456789".contains(raw[i]) { i = raw.index(after: i) }
            guard start < i else { continue }
            if count == occurrence { return String(raw[start..<i]) }
            count += 1
        }
        return nil
    }

    /// Why a number's text may trip a decoder: a fraction or exponent for an integer, a whole number or an exponent
    /// for a decimal, more digits than a Double keeps.
    static func numberRemark(_ text: String, types: Set<String>) -> String {
        let exponent = text.contains("e") || text.contains("E")
        let fraction = text.contains(".")
        let digits = text.filter(\.isNumber).count
        if types.contains("integer"), fraction || exponent { return " (an integer field written with a fraction or exponent)" }
        if exponent { return " (an exponent)" }
        if types.contains("number"), !fraction { return " (a whole number in a decimal field)" }
        if digits > 15 { return " (more digits than a double keeps)" }
        return ""
    }
}
