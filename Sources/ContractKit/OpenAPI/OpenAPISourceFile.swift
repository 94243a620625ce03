import Foundation
import Yams

/// One file of an OpenAPI document (the root or a file a `$ref` names), parsed into the project's ordered JSON value
/// together with where each JSON pointer starts, so every problem can name its file, line and column.
struct OpenAPISourceFile: Sendable {
    /// The file on disk, standardized.
    let url: URL
    /// The file as shown to a person.
    let display: String
    /// The parsed content; YAML is read by YAML 1.2 core rules into the same values JSON would give.
    let value: JSONValue
    /// Where each pointer starts (a member at its key, an item at its first character).
    private let positions: [String: JSONLineIndex.Position]
    /// JSON text's positions, scanned on demand like the folder's JSON reports.
    private let jsonIndex: JSONLineIndex?

    /// Reads and parses `url`: JSON when its text starts with `{` (or the name ends in `.json`), YAML otherwise.
    static func read(_ url: URL) throws(OpenAPIProblem) -> OpenAPISourceFile {
        let url = url.standardizedFileURL
        let display = LintPrinter.displayPath(url)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw OpenAPIProblem(file: display, pointer: "", message: "the file cannot be read: \(FileErrorText.reason(error))")
        }
        let bytes = [UInt8](data)
        let firstSignificant = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }.first
        if url.pathExtension.lowercased() == "json" || firstSignificant == UInt8(ascii: "{") {
            do {
                let value = try JSONValue(parsing: data)
                return OpenAPISourceFile(url: url, display: display, value: value, positions: [:], jsonIndex: JSONLineIndex(bytes: bytes))
            } catch {
                throw OpenAPIProblem(file: display, line: error.line, column: error.column, pointer: "", message: "invalid JSON: \(error.reason)")
            }
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw OpenAPIProblem(file: display, pointer: "", message: "the file is not UTF-8 text")
        }
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw OpenAPIProblem(file: display, pointer: "", message: "the file is empty; expected an OpenAPI document")
            }
            var reader = YAMLTreeReader(display: display)
            let value = try reader.value(node, at: "")
            return OpenAPISourceFile(url: url, display: display, value: value, positions: reader.positions, jsonIndex: nil)
        } catch let problem as OpenAPIProblem {
            throw problem
        } catch let error as YamlError {
            throw OpenAPIProblem(yaml: error, file: display)
        } catch {
            throw OpenAPIProblem(file: display, pointer: "", message: "invalid YAML: \(error)")
        }
    }

    /// Where `pointer` starts, or its closest ancestor that exists.
    func position(of pointer: String) -> JSONLineIndex.Position? {
        if let jsonIndex { return jsonIndex.nearestPosition(of: pointer) }
        guard var tokens = JSONPointer.tokens(pointer) else { return positions[""] }
        while true {
            let candidate = tokens.reduce("") { JSONPointer.appending($0, $1) }
            if let found = positions[candidate] { return found }
            if tokens.isEmpty { return nil }
            tokens.removeLast()
        }
    }

    /// A problem at `pointer` of this file, with its line and column.
    func problem(_ pointer: String, _ message: String) -> OpenAPIProblem {
        let position = position(of: pointer)
        return OpenAPIProblem(file: display, line: position?.line, column: position?.column, pointer: pointer, message: message)
    }
}

/// Converts a composed YAML tree into ordered JSON values, recording each node's mark under its JSON pointer.
struct YAMLTreeReader {
    let display: String
    private(set) var positions: [String: JSONLineIndex.Position] = [:]
    /// Anchored values by anchor name, for aliases (`*name`).
    private var anchors: [String: JSONValue] = [:]
    private var depth = 0

    init(display: String) {
        self.display = display
    }

    mutating func value(_ node: Node, at pointer: String) throws(OpenAPIProblem) -> JSONValue {
        if positions[pointer] == nil, let mark = node.mark { positions[pointer] = JSONLineIndex.Position(line: mark.line, column: mark.column) }
        depth += 1
        defer { depth -= 1 }
        guard depth < 512 else { throw problem(node, pointer, "the document nests deeper than 512 levels") }
        let result: JSONValue
        switch node {
        case .scalar(let scalar):
            result = Self.scalar(scalar, tag: node.tag)
        case .sequence(let sequence):
            var items: [JSONValue] = []
            for (i, item) in sequence.enumerated() { items.append(try value(item, at: JSONPointer.appending(pointer, i))) }
            result = .array(items)
        case .mapping(let mapping):
            var object = JSONObject()
            for (keyNode, valueNode) in mapping {
                guard case .scalar(let keyScalar) = keyNode else {
                    throw problem(keyNode, pointer, "a mapping key must be a plain value, not a list or a mapping")
                }
                if keyScalar.string == "<<" {
                    // A merge key (`<<: *base`): the anchored mapping's members, unless already given.
                    if case .object(let base) = try value(valueNode, at: pointer) {
                        for (k, v) in base where object[k] == nil { object[k] = v }
                    }
                    continue
                }
                let key = keyScalar.string
                let at = JSONPointer.appending(pointer, key)
                if object[key] != nil { throw problem(keyNode, at, "the key \"\(key)\" appears twice in this mapping") }
                if let mark = keyNode.mark { positions[at] = JSONLineIndex.Position(line: mark.line, column: mark.column) }
                object[key] = try value(valueNode, at: at)
            }
            result = .object(object)
        case .alias(let alias):
            guard let target = anchors[alias.anchor.rawValue] else {
                throw problem(node, pointer, "the alias *\(alias.anchor.rawValue) names no anchor above it")
            }
            result = target
        }
        if let anchor = node.anchor { anchors[anchor.rawValue] = result }
        return result
    }

    /// A scalar by its resolved tag (YAML 1.1 core schema, as libyaml's resolver reads it); anything else is text.
    static func scalar(_ scalar: Node.Scalar, tag: Tag) -> JSONValue {
        let node = Node.scalar(scalar)
        switch Tag.Name(rawValue: tag.rawValue) {
        case Tag.Name.null: return .null
        case Tag.Name.bool: return node.bool.map(JSONValue.bool) ?? .string(scalar.string)
        case Tag.Name.int: return node.int.map { .number(Double($0)) } ?? node.float.map(JSONValue.number) ?? .string(scalar.string)
        case Tag.Name.float: return node.float.map(JSONValue.number) ?? .string(scalar.string)
        default: return .string(scalar.string)
        }
    }

    private func problem(_ node: Node, _ pointer: String, _ message: String) -> OpenAPIProblem {
        OpenAPIProblem(file: display, line: node.mark?.line, column: node.mark?.column, pointer: pointer, message: message)
    }
}
