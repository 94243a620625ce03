import Foundation

/// How one drift is named whichever request showed it: the answer's status, the JSON pointer with every list index as
/// `*` (the third item of a list breaks the item schema the first one breaks), and the rule broken without the value
/// found. Two examples and a generated request that meet `photoUrl` answered as a relative path under `format: uri` all
/// give `200 /data/*/photoUrl must be a valid uri`, which the drift report says once.
public enum DriftKey {
    /// The key of a body mismatch at `pointer` of an answer with `status`, whose rule reads `message`.
    public static func body(status: Int, pointer: String, message: String) -> String {
        "\(status) \(normalized(pointer.isEmpty ? "/" : pointer)) \(rule(message))"
    }

    /// `pointer` with each list index written `*`.
    public static func normalized(_ pointer: String) -> String {
        pointer.split(separator: "/", omittingEmptySubsequences: false)
            .map { !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) ? "*" : String($0) }
            .joined(separator: "/")
    }

    /// The rule of a validator's message without its subject (which names the index) and without the value found:
    /// `data/0/photoUrl must be a valid uri, found "/a.png"` → `must be a valid uri`; `items is required` stays.
    public static func rule(_ message: String) -> String {
        var text = message
        if let found = text.range(of: ", found ", options: .backwards) { text = String(text[..<found.lowerBound]) }
        if let must = text.range(of: " must ") { text = String(text[text.index(after: must.lowerBound)...]) }
        return text
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
