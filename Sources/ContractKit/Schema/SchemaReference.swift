import Foundation

/// `$ref` handling: splitting, resolving file parts relative to the referring file, and rewriting
/// every reference of a loaded document to the canonical form "path/from/contracts/root.json#/pointer".
public enum SchemaReference {
    /// The file part and the JSON-pointer fragment ("" for the whole document) of `ref`.
    public static func split(_ ref: String) -> (file: String, fragment: String) {
        guard let hash = ref.firstIndex(of: "#") else { return (ref, "") }
        let fragment = String(ref[ref.index(after: hash)...])
        guard fragment.utf8.contains(UInt8(ascii: "%")) else { return (String(ref[..<hash]), fragment) }
        return (String(ref[..<hash]), fragment.removingPercentEncoding ?? fragment)
    }

    /// `relative` resolved against the folder of `base` (both relative to the contracts folder),
    /// or nil when it climbs above the contracts folder.
    public static func join(base: String, relative: String) -> String? {
        var parts = base.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        parts.removeLast()  // the referring file's own name
        if relative.hasPrefix("/") { parts = [] }
        for piece in relative.split(separator: "/", omittingEmptySubsequences: true) {
            switch piece {
            case ".": continue
            case "..":
                if parts.isEmpty { return nil }
                parts.removeLast()
            default: parts.append(String(piece))
            }
        }
        return parts.filter { !$0.isEmpty }.joined(separator: "/")
    }

    /// The keywords whose values are subschemas, and how: one schema, an array of them, or a map of them.
    enum Slot { case single, list, map }
    static let subschemaKeywords: [String: Slot] = [
        "properties": .map, "$defs": .map, "definitions": .map, "items": .single, "additionalProperties": .single,
        "not": .single, "allOf": .list, "anyOf": .list, "oneOf": .list,
    ]

    /// `schema` with every `$ref` rewritten to be relative to the contracts folder, given the file `documentKey` it appears in.
    public static func canonicalize(_ schema: JSONValue, documentKey: String) -> JSONValue {
        guard case .object(var object) = schema else { return schema }
        if case .string(let ref)? = object["$ref"] {
            let (file, fragment) = split(ref)
            let target = file.isEmpty ? documentKey : (join(base: documentKey, relative: file) ?? file)
            object["$ref"] = .string(fragment.isEmpty ? target : target + "#" + fragment)
        }
        for (keyword, slot) in subschemaKeywords {
            guard let value = object[keyword] else { continue }
            switch (slot, value) {
            case (.single, _):
                object[keyword] = canonicalize(value, documentKey: documentKey)
            case (.list, .array(let items)):
                object[keyword] = .array(items.map { canonicalize($0, documentKey: documentKey) })
            case (.map, .object(let members)):
                object[keyword] = .object(JSONObject(members.map { ($0.key, canonicalize($0.value, documentKey: documentKey)) }))
            default:
                continue
            }
        }
        return .object(object)
    }
}
