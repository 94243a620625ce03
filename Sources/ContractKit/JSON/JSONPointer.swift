import Foundation

/// RFC 6901 JSON pointers: building them from tokens and resolving them in a `JSONValue`.
public enum JSONPointer {
    /// `base` extended by one reference token, escaped (`~` → `~0`, `/` → `~1`).
    public static func appending(_ base: String, _ token: String) -> String {
        // Validation builds a pointer per property; Foundation's replacing is only worth it when there is something to escape.
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return base + "/" + token }
        return base + "/" + token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// `base` extended by an array index.
    public static func appending(_ base: String, _ index: Int) -> String {
        base + "/" + String(index)
    }

    /// The unescaped reference tokens of `pointer`; nil when it is neither "" nor starts with "/".
    public static func tokens(_ pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            // Foundation's replacing only when there is an escape to undo.
            $0.utf8.contains(UInt8(ascii: "~")) ? $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") : String($0)
        }
    }

    /// The value `pointer` designates inside `document`, or nil when there is none.
    public static func resolve(_ pointer: String, in document: JSONValue) -> JSONValue? {
        guard let tokens = tokens(pointer) else { return nil }
        var current = document
        for token in tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let items):
                guard let i = Int(token), i >= 0, i < items.count else { return nil }
                current = items[i]
            default:
                return nil
            }
        }
        return current
    }
}
