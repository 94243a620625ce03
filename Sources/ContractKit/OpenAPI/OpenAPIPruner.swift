import Foundation

/// Takes out of a translated folder the examples that break their own schema and the answers left with no example,
/// turning each problem `OpenAPIExampleCheck` finds in them (the folder loader's own example checks, run before the one
/// load) into a warning at the document place (and naming the schema's place).
struct OpenAPIPruner {
    private(set) var files: [String: JSONValue]
    private(set) var sourceMap: OpenAPISourceMap
    private(set) var changed = false
    /// Lists to take items out of: (file, list pointer) → item indexes.
    private var removals: [String: [String: Set<Int>]] = [:]
    /// Answers whose examples are replaced by one made from the schema: file → response index → the example.
    private var replacements: [String: [Int: JSONValue]] = [:]
    /// Answers whose schema no example fits and none can be made from: served with their examples, unchecked.
    private var schemaless: [String: [Int: JSONValue]] = [:]
    /// The translation before any pass took examples out (an answer's examples are looked up there once all are gone).
    private let original: [String: JSONValue]

    /// An example made from response `index`'s body schema; nil without a schema or when none can be made.
    private func madeExample(key: String, response index: Int) -> JSONValue? {
        guard let body = files[key]?["responses"]?.arrayValue?[safe: index]?["body"] else { return nil }
        var documents: [String: JSONValue] = [:]
        for (k, v) in files where k.hasPrefix("schemas/") { documents[k] = SchemaReference.canonicalize(v, documentKey: k) }
        let synthesizer = ExampleSynthesizer(validator: SchemaValidator(documents: documents))
        guard let value = synthesizer.example(for: SchemaReference.canonicalize(body, documentKey: key)) else { return nil }
        return ["name": "made from the schema", "body": value]
    }

    init(files: [String: JSONValue], sourceMap: OpenAPISourceMap, original: [String: JSONValue]) {
        self.files = files
        self.original = original
        self.sourceMap = sourceMap
    }

    /// The warning for `problem` when it is about an example or an example-less answer (queued for removal); nil otherwise.
    mutating func prune(_ problem: LintProblem, key: String) -> LintProblem? {
        let tokens = JSONPointer.tokens(problem.pointer) ?? []
        let located = sourceMap.problem(problem, key: key)
        if tokens.count >= 4, tokens[0] == "responses", let response = Int(tokens[1]), tokens[2] == "examples", let example = Int(tokens[3]) {
            queue(key, "/responses/\(response)/examples", example)
            let schema = place(key, "/responses/\(response)/body")
            return LintProblem(file: located.file, line: located.line, column: located.column, pointer: located.pointer,
                message: "\(problem.message)\(schema.map { " (the schema: \($0))" } ?? ""); the example is not served")
        }
        if tokens.count >= 3, tokens[0] == "request", tokens[1] == "examples", let example = Int(tokens[2]) {
            queue(key, "/request/examples", example)
            let schema = place(key, "/request/body")
            return LintProblem(file: located.file, line: located.line, column: located.column, pointer: located.pointer,
                message: "\(problem.message)\(schema.map { " (the schema: \($0))" } ?? ""); the example is not served")
        }
        if tokens.count == 3, tokens[0] == "responses", let response = Int(tokens[1]), tokens[2] == "examples",
            problem.message.contains("at least one named example")
        {
            // Its examples all broke the schema: one made from the schema stands in, when the schema allows one.
            if let made = madeExample(key: key, response: response) {
                replacements[key, default: [:]][response] = made
                if let status = files[key]?["responses"]?.arrayValue?[safe: response]?["status"]?.intValue {
                    sourceMap.addMadeExample(key: key, status: status, name: "made from the schema")
                }
                return LintProblem(file: located.file, line: located.line, column: located.column, pointer: located.pointer,
                    message: "no example of this answer fits its schema; it is served with one made from the schema")
            }
            // A schema nothing can satisfy (an allOf whose members close each other off) contradicts itself, not the
            // examples: the document's own examples are served as written rather than leaving the operation mute.
            let examples = "/responses/\(response)/examples"
            let current = files[key]?["responses"]?.arrayValue?[safe: response]?["examples"]
            let written = current?.arrayValue?.isEmpty == false ? current : original[key]?["responses"]?.arrayValue?[safe: response]?["examples"]
            if let written, written.arrayValue?.isEmpty == false {
                removals[key]?[examples] = nil
                schemaless[key, default: [:]][response] = written
                return LintProblem(file: located.file, line: located.line, column: located.column, pointer: located.pointer,
                    message: "no example of this answer fits its schema and none can be made from it (the schema\(place(key, "/responses/\(response)/body").map { ", " + $0 } ?? "") may admit no value at all); its examples are served as written and its body is not checked")
            }
            queue(key, "/responses", response)
            return LintProblem(file: located.file, line: located.line, column: located.column, pointer: located.pointer,
                message: "this answer has no example that fits its schema and none could be made from it; it is not served")
        }
        return nil
    }

    private func place(_ key: String, _ pointer: String) -> String? {
        guard let found = sourceMap.locate(key: key, pointer: pointer) else { return nil }
        let position = [found.line, found.column].compactMap { $0.map(String.init) }.joined(separator: ":")
        return "\(found.file)\(position.isEmpty ? "" : ":" + position) \(found.pointer)"
    }

    private mutating func queue(_ key: String, _ list: String, _ index: Int) {
        removals[key, default: [:]][list, default: []].insert(index)
    }

    /// Takes the queued items out, last first so earlier indexes stay valid.
    mutating func apply() {
        for (key, answers) in replacements {
            guard case .object(var contract)? = files[key], case .array(var responses)? = contract["responses"] else { continue }
            for (index, example) in answers where responses.indices.contains(index) {
                guard case .object(var response) = responses[index] else { continue }
                response["examples"] = [example]
                responses[index] = .object(response)
                changed = true
            }
            contract["responses"] = .array(responses)
            files[key] = .object(contract)
        }
        replacements = [:]
        for (key, answers) in schemaless {
            guard case .object(var contract)? = files[key], case .array(var responses)? = contract["responses"] else { continue }
            for (index, examples) in answers where responses.indices.contains(index) {
                guard case .object(var response) = responses[index] else { continue }
                // The empty schema admits any body: the examples stand as written, unchecked.
                response["body"] = .object(JSONObject())
                response["examples"] = examples
                responses[index] = .object(response)
                changed = true
            }
            contract["responses"] = .array(responses)
            files[key] = .object(contract)
        }
        schemaless = [:]
        for (key, lists) in removals {
            guard var value = files[key] else { continue }
            // Examples before answers: an answer's removal shifts the examples' pointers.
            for list in lists.keys.sorted(by: { $0.count > $1.count }) {
                for index in lists[list]!.sorted(by: >) {
                    value = Self.removing(index, from: list, in: value)
                    sourceMap.removeItem(key: key, list: list, index: index)
                    changed = true
                }
            }
            files[key] = value
        }
        removals = [:]
    }

    static func removing(_ index: Int, from list: String, in value: JSONValue) -> JSONValue {
        guard let tokens = JSONPointer.tokens(list) else { return value }
        return removing(index, tokens: tokens[...], in: value)
    }

    private static func removing(_ index: Int, tokens: ArraySlice<String>, in value: JSONValue) -> JSONValue {
        guard let first = tokens.first else {
            guard case .array(var items) = value, items.indices.contains(index) else { return value }
            items.remove(at: index)
            return .array(items)
        }
        switch value {
        case .object(var object):
            guard let member = object[first] else { return value }
            object[first] = removing(index, tokens: tokens.dropFirst(), in: member)
            return .object(object)
        case .array(var items):
            guard let i = Int(first), items.indices.contains(i) else { return value }
            items[i] = removing(index, tokens: tokens.dropFirst(), in: items[i])
            return .array(items)
        default:
            return value
        }
    }
}

extension Array {
    /// The element at `index`, or nil past the ends.
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
