import Foundation

/// Compiled `pattern` regexes shared by all validations, because compiling on every request is wasteful.
final class RegexCache: @unchecked Sendable {
    static let shared = RegexCache()

    // NSRegularExpression matching is thread-safe; the lock guards only the dictionary.
    private let lock = NSLock()
    private var compiled: [String: NSRegularExpression] = [:]
    private var invalid: Set<String> = []

    /// The compiled regex for `pattern`, or nil when it does not compile.
    func regex(_ pattern: String) -> NSRegularExpression? {
        lock.lock()
        defer { lock.unlock() }
        if let r = compiled[pattern] { return r }
        if invalid.contains(pattern) { return nil }
        guard let r = try? NSRegularExpression(pattern: pattern) else {
            invalid.insert(pattern)
            return nil
        }
        compiled[pattern] = r
        return r
    }

    /// Whether `pattern` finds a match anywhere in `text` (JSON Schema patterns are not implicitly anchored).
    func matches(_ pattern: String, _ text: String) -> Bool? {
        if let known = PatternShortcut.matches(pattern, text) { return known }
        guard let r = regex(pattern) else { return nil }
        return r.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
