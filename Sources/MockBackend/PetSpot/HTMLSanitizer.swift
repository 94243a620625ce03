import Foundation

/// Strips HTML from user text the way the real backend stores it: tags go, and script/style elements lose their content too.
public enum HTMLSanitizer {
    /// Elements whose content is code, not text, so it is dropped with the tags.
    static let contentDroppingElements = ["script", "style"]

    /// `text` without HTML tags; trimmed unless `trim` is false (the real backend stores surrounding spaces).
    public static func strip(_ text: String, trim: Bool = true) -> String {
        guard text.utf8.contains(UInt8(ascii: "<")) else { return trim ? text.trimming(.whitespacesAndNewlines) : text }
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            out += rest[..<open]
            let afterOpen = rest[open...]
            // Like an HTML tokenizer: "<" starts a tag only before a letter, "/" or "!"; "1 < 2" is text.
            guard let next = afterOpen.dropFirst().first, next.isLetter || next == "/" || next == "!" else {
                out += "<"
                rest = afterOpen.dropFirst()
                continue
            }
            guard let close = afterOpen.firstIndex(of: ">") else {
                // A lone "<" with no closing ">" is text, not a tag.
                out += afterOpen
                rest = ""
                break
            }
            let tag = afterOpen[afterOpen.index(after: open)..<close]
            let name = tagName(tag)
            rest = afterOpen[afterOpen.index(after: close)...]
            if !tag.hasPrefix("/"), contentDroppingElements.contains(name) {
                // Drop everything up to the matching end tag (or to the end when it never closes).
                if let end = rest.range(of: "</\(name)", options: .caseInsensitive) {
                    let tail = rest[end.upperBound...]
                    rest = tail.firstIndex(of: ">").map { tail[tail.index(after: $0)...] } ?? ""
                } else {
                    rest = ""
                }
            }
        }
        out += rest
        return trim ? out.trimming(.whitespacesAndNewlines) : out
    }

    private static func tagName(_ tag: Substring) -> String {
        let body = tag.drop { $0 == "/" }
        return String(body.prefix { $0.isLetter || $0.isNumber }).lowercased()
    }
}
