import Foundation

/// Compiled `pattern`s shared by all validations, because compiling on every request is wasteful. Every pattern runs on
/// `LinearPattern` (time linear in the input); there is no backtracking fallback.
final class RegexCache: @unchecked Sendable {
    static let shared = RegexCache()

    // LinearPattern is a value; the lock guards only the dictionary.
    private let lock = NSLock()
    private var compiled: [String: Result<LinearPattern, LinearPatternError>] = [:]

    /// The compiled `pattern`, or why it cannot run in linear time.
    func compile(_ pattern: String) -> Result<LinearPattern, LinearPatternError> {
        lock.lock()
        defer { lock.unlock() }
        if let known = compiled[pattern] { return known }
        let result = Result { () throws(LinearPatternError) in try LinearPattern(pattern) }
        compiled[pattern] = result
        return result
    }

    /// Whether `pattern` finds a match anywhere in `text` (JSON Schema patterns are not implicitly anchored); nil when
    /// the pattern does not compile.
    func matches(_ pattern: String, _ text: String) -> Bool? {
        if let known = PatternShortcut.matches(pattern, text) { return known }
        guard case .success(let compiled) = compile(pattern) else { return nil }
        return compiled.matches(text)
    }
}
