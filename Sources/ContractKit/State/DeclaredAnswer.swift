import Foundation

/// An error answer stated in a contract: `{"status": …, "code": "…", "message": "…", "field": "…"}`.
///
/// `message` and `field` may hold placeholders: `{name}` is the path parameter `name` (e.g. `{id}`).
public struct DeclaredAnswer: Sendable, Equatable {
    /// The HTTP status (400 when the contract leaves it out).
    public let status: Int
    /// The envelope's `code`.
    public let code: String
    /// The envelope's `message`, placeholders unresolved.
    public let message: String
    /// The envelope's `field`, placeholders unresolved; nil: the envelope has no field.
    public let field: String?

    /// An answer from its parts.
    public init(status: Int = 400, code: String, message: String, field: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
    }

    /// The message with every `{name}` replaced by `parameters[name]`.
    public func message(with parameters: [String: String]) -> String { Self.fill(message, parameters) }

    /// The field with every `{name}` replaced by `parameters[name]`.
    public func field(with parameters: [String: String]) -> String? { field.map { Self.fill($0, parameters) } }

    static let keys = ["status", "code", "message", "field"]

    /// Reads an answer object, recording a problem for each missing or wrongly typed member.
    static func read(_ value: JSONValue, file: String, pointer: String, problems: inout [LintProblem]) -> DeclaredAnswer? {
        guard let reader = ObjectReader(value, file: file, pointer: pointer, what: "an answer", problems: &problems) else { return nil }
        let before = problems.count
        reader.checkKeys(allowed: keys, required: ["code", "message"], what: "the answer", problems: &problems)
        let status = reader.int("status", minimum: 100, problems: &problems) ?? 400
        if status > 599 {
            problems.append(LintProblem(file: file, pointer: reader.at("status"), message: "status must be between 100 and 599, found \(status)"))
        }
        let code = reader.string("code", problems: &problems)
        let message = reader.string("message", problems: &problems)
        let field = reader.string("field", problems: &problems)
        guard problems.count == before, let code, let message else { return nil }
        return DeclaredAnswer(status: status, code: code, message: message, field: field)
    }

    /// `text` with every `{name}` replaced by `parameters[name]` (used for messages, fields and published addresses).
    ///
    /// One pass over the template: a value that itself contains `{…}` (a decoded path parameter may) is never filled again.
    public static func fill(_ text: String, _ parameters: [String: String]) -> String {
        guard text.contains("{") else { return text }
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}"), let value = parameters[String(rest[rest.index(after: open)..<close])] else {
                out.append("{")
                rest = rest[rest.index(after: open)...]
                continue
            }
            out += value
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }
}
