/// One way an instance fails a JSON Schema: where, which keyword, and a sentence for a person.
public struct SchemaViolation: Sendable, Equatable, CustomStringConvertible {
    /// JSON pointer into the instance, "" for the root, e.g. "/species".
    public let pointer: String
    /// The failing keyword: "required", "type", "pattern", "additionalProperties", "anyOf", ...
    public let keyword: String
    /// A sentence for a person.
    public let message: String

    /// A violation at `pointer` of `keyword`.
    public init(pointer: String, keyword: String, message: String) {
        self.pointer = pointer
        self.keyword = keyword
        self.message = message
    }

    /// `pointer: message`, with "(root)" for the root.
    public var description: String { "\(pointer.isEmpty ? "(root)" : pointer): \(message) [\(keyword)]" }
}
