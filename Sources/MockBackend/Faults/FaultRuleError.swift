/// A problem in a fault rule file, naming the file and the JSON pointer of the offending value.
public struct FaultRuleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file (or source name, e.g. `admin API`) the rules came from.
    public let file: String
    /// The JSON pointer of the offending value, e.g. `/rules/0/fault/status`.
    public let pointer: String
    /// What is wrong, written for a person.
    public let message: String

    /// Creates an error.
    public init(file: String, pointer: String, message: String) {
        self.file = file
        self.pointer = pointer
        self.message = message
    }

    /// `file at pointer: message`.
    public var description: String {
        "\(file) at \(pointer.isEmpty ? "the root" : pointer): \(message)"
    }
}
