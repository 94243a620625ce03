import Foundation

/// One schema of a `CompiledSchema`: its keywords read once, with the fixed parts of their messages already written.
///
/// A class, not a struct: the check visits a node per value and a struct this wide was copied (every field retained and
/// released) on each visit, a quarter of the check's time on a create. Only `CompiledSchemaCompiler` writes to a node,
/// before the `CompiledSchema` holding it exists; from then on nodes are only read, which is what makes sharing safe.
final class CompiledSchemaNode: @unchecked Sendable {
    /// What the schema is at all: `true` (or not an object), `false`, or an object of keywords.
    enum Kind: Sendable { case anything, nothing, checks }

    /// A `$ref`: the node it designates, or the text of one that does not resolve (reported when reached).
    enum Reference: Sendable {
        case resolved(Int, text: String)
        case unresolved(String)
    }

    /// `additionalProperties`: none, `false`, or a schema every other member must satisfy.
    enum Additional: Sendable {
        case none
        case forbidden
        case schema(Int)
    }

    /// One entry of `properties`, in the schema's order.
    struct Property: Sendable {
        let name: String
        let node: Int
        let required: Bool
        /// The property's pointer under the root ("/name", escaped), built once: most bodies are checked from the root,
        /// and building it per check was string work on every request.
        let rootPointer: String

        init(name: String, node: Int, required: Bool) {
            self.name = name
            self.node = node
            self.required = required
            rootPointer = JSONPointer.appending("", name)
        }

        /// The property's pointer under `base`.
        func pointer(under base: String) -> String {
            base.isEmpty ? rootPointer : JSONPointer.appending(base, name)
        }
    }

    /// `allOf`, `anyOf`, `oneOf` and `not`, with the alternatives' descriptions for the messages.
    struct Composition: Sendable {
        var allOf: [Int] = []
        var anyOf: [Int]?
        var anyOfText = ""
        var oneOf: [Int]?
        var oneOfText = ""
        var not: Int?
        var notText = ""
    }

    var kind: Kind = .checks
    var reference: Reference?
    var types: JSONTypeSet?
    var typeText = ""
    var enumOptions: [JSONValue]?
    var enumText = ""
    var constant: JSONValue?
    var constantText = ""
    var string: CompiledStringChecks?
    var number: CompiledNumberChecks?
    var properties: [Property] = []
    var propertyNames: Set<String> = []
    var requiredElsewhere: [String] = []
    var additional: Additional = .none
    var minProperties: Int?
    var maxProperties: Int?
    var minItems: Int?
    var maxItems: Int?
    var items: Int?
    var composition: Composition?
}
