import Foundation

/// JavaScript's view of text where the real backend's rules depend on it: `String.prototype.trim` and `.length`.
public enum JavaScriptText {
    /// Whether `v` is white space or a line terminator to ECMA-262 (what `trim` removes and `\s` matches): TAB, VT, FF,
    /// SP, NBSP, ZWNBSP, the Zs category, LF, CR, LS and PS. Not U+0085 or U+180E, which Foundation's sets include.
    @inline(__always)
    public static func isWhiteSpace(_ v: UInt32) -> Bool {
        if v < 0x80 { return v == 0x20 || (0x09...0x0D).contains(v) }
        switch v {
        case 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: return true
        default: return false
        }
    }

    /// `text.trim()`; the text itself when there is nothing to trim (one look at each end).
    public static func trim(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return text }
        guard isWhiteSpace(first.value) || isWhiteSpace(last.value) else { return text }
        guard let start = scalars.firstIndex(where: { !isWhiteSpace($0.value) }) else { return "" }
        let end = scalars.lastIndex(where: { !isWhiteSpace($0.value) })!
        return String(scalars[start...end])
    }

    /// `text.length`: UTF-16 code units.
    @inline(__always)
    public static func length(_ text: String) -> Int {
        text.utf16.count
    }
}
