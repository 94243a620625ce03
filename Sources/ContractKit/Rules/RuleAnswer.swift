import Foundation

/// An error answer a contract states for a broken rule: status, code, and message and field templates.
///
/// Templates may hold `{field}` (the property or parameter), `{received}` (zod's type name of the value) and `{key}` (an
/// unknown key); the answer is rendered only when a rule fails, so the hot path never touches them.
public struct RuleAnswer: Sendable, Equatable {
    /// The HTTP status; 400 unless the contract says otherwise.
    public let status: Int
    /// The envelope's `code`.
    public let code: String
    /// The envelope's `message`, a template.
    public let message: String
    /// The envelope's `field`, a template; nil: the envelope has no field.
    public let field: String?

    /// The placeholders a template may use.
    public static let placeholders: Set<String> = ["field", "received", "key"]

    /// An answer from its parts.
    public init(status: Int = 400, code: String, message: String, field: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
    }

    /// The answer to a broken rule the contract states no answer for, built on `fallback` (the contract's first
    /// documented 400, so the status and code are documented ones): a message that names the rule broken, e.g.
    /// `collarColor breaks maxLength 20`, `species is required`, rather than the fallback's own message.
    public static func unstated(keyword: String, bound: String? = nil, fallback: RuleAnswer, field: String? = "{field}") -> RuleAnswer {
        let message: String
        switch keyword {
        case "required", "undefined": message = "{field} is required"
        case "type": message = "{field}: wrong type, received {received}"
        case "additionalProperties": message = "{key} is not allowed (additionalProperties)"
        default: message = "{field} breaks \(keyword)" + (bound.map { " \($0)" } ?? "")
        }
        return RuleAnswer(status: fallback.status, code: fallback.code, message: message, field: field)
    }

    /// The answer with its placeholders filled; `assumption` says what the model assumed to give it (nil: stated).
    public func refusal(field fieldName: String = "", received: String = "", key: String = "", assumption: String? = nil) -> RuleRefusal {
        func fill(_ template: String) -> String {
            Self.fill(template) { name -> String? in
                switch name {
                case "field": return fieldName
                case "received": return received
                case "key": return key
                default: return nil
                }
            }
        }
        return RuleRefusal(status: status, code: code, message: fill(message), field: field.map(fill), assumption: assumption)
    }

    /// `template` with each `{name}` that `value` knows replaced, in one pass (Foundation's replacing costs a bridge per
    /// call, several per answer).
    static func fill(_ template: String, _ value: (Substring) -> String?) -> String {
        guard template.utf8.contains(UInt8(ascii: "{")) else { return template }
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out += rest[..<open]
            let name = rest[rest.index(after: open)..<close]
            if let filled = value(name) { out += filled } else { out += rest[open...close] }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// The placeholders of `template` that are not in `allowed`, in order of appearance.
    static func unknownPlaceholders(in template: String, allowed: Set<String>) -> [String] {
        var found: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let name = String(rest[rest.index(after: open)..<close])
            if !allowed.contains(name), !found.contains(name) { found.append(name) }
            rest = rest[rest.index(after: close)...]
        }
        return found
    }
}

/// A rule's answer with its placeholders filled: what the model answers to a request that breaks a rule.
public struct RuleRefusal: Sendable, Equatable, Error {
    /// The HTTP status.
    public let status: Int
    /// The envelope's `code`.
    public let code: String
    /// The envelope's `message`.
    public let message: String
    /// The envelope's `field`, when it has one.
    public let field: String?
    /// What the model assumed where the contract states no answer for the broken rule, for a person; nil: stated.
    public let assumption: String?

    /// A refusal from its parts.
    public init(status: Int, code: String, message: String, field: String?, assumption: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.assumption = assumption
    }
}
