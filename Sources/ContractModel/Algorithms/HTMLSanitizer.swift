import Foundation

/// Sanitizes user text the way the real backend stores it: the `xss` package (1.0.x) with an empty tag allow-list,
/// ignored tags stripped and `<script>`/`<style>` bodies removed.
///
/// This is not an HTML parser: it reproduces that package's scanner, corners included, because exploration compares
/// stored values byte for byte (petspot-api.md, "Quirks of the real backend"). So a stray `>` is escaped, `a < b`
/// loses everything from `<` (a tag-looking chunk runs to the end of the input when never closed), comments vanish
/// (an unterminated `<!--` takes the rest with it), and an unclosed `<script>` leaves the literal `[removed]`.
public enum HTMLSanitizer {
    /// Elements whose body is code, not text, so it is dropped together with the tags.
    static let bodyDroppingElements: Set<String> = ["script", "style"]

    /// `text` as the real backend stores it; trimmed unless `trim` is false (the real backend keeps surrounding spaces).
    public static func strip(_ text: String, trim: Bool = true) -> String {
        // Most values hold no angle bracket, and then the package returns them untouched.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else {
            return trim ? text.trimming(.whitespacesAndNewlines) : text
        }
        let scalars = withoutComments(Array(text.unicodeScalars))
        var tags = IgnoredTags()
        let scanned = scan(scalars, tags: &tags)
        var out = String.UnicodeScalarView()
        out.append(contentsOf: tags.removingBodies(from: scanned))
        let result = String(out)
        return trim ? result.trimming(.whitespacesAndNewlines) : result
    }

    /// The text without `<!-- … -->`; the closing `-->` is searched from the opening itself (so `<!-->` is a whole
    /// comment), and an opening that never closes drops the rest of the text.
    static func withoutComments(_ s: [Unicode.Scalar]) -> [Unicode.Scalar] {
        let open: [Unicode.Scalar] = ["<", "!", "-", "-"]
        let close: [Unicode.Scalar] = ["-", "-", ">"]
        guard var start = s.firstIndex(of: open, from: 0) else { return s }
        var out = Array(s[..<start])
        while true {
            guard let end = s.firstIndex(of: close, from: start) else { return out }
            let next = end + close.count
            guard let nextOpen = s.firstIndex(of: open, from: next) else {
                out += s[next...]
                return out
            }
            out += s[next..<nextOpen]
            start = nextOpen
        }
    }

    /// The package's tag scanner: text between tags is escaped, each tag goes to `tags`, which answers what replaces it.
    ///
    /// A `<` inside a tag restarts the tag there (the text before it is escaped), a quote right after `=` hides `<`
    /// and `>` until it closes, and the last character of the input ends an open tag as if it were `>`.
    static func scan(_ s: [Unicode.Scalar], tags: inout IgnoredTags) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(s.count + 16)
        var lastPos = 0
        var tagStart: Int?
        var quote: Unicode.Scalar?
        for pos in s.indices {
            let c = s[pos]
            guard let start = tagStart else {
                if c == "<" { tagStart = pos }
                continue
            }
            if let open = quote {
                if c == open { quote = nil }
                continue
            }
            if c == "<" {
                appendEscaped(s[lastPos..<pos], to: &out)
                tagStart = pos
                lastPos = pos
            } else if c == ">" || pos == s.count - 1 {
                appendEscaped(s[lastPos..<start], to: &out)
                out += tags.replacement(for: s[start...pos], at: out.count)
                lastPos = pos + 1
                tagStart = nil
            } else if c == "\"" || c == "'" {
                // An attribute value opens only when the quote follows `=` (whitespace in between allowed).
                var i = pos - 1
                while i > start, isJavaScriptSpace(s[i]) { i -= 1 }
                if s[i] == "=" { quote = c }
            }
        }
        // A tag still open here (an unterminated quoted value) is text after all.
        if lastPos < s.count { appendEscaped(s[lastPos...], to: &out) }
        return out
    }

    /// Appends text with `<` and `>` escaped; `&` and quotes stay as they are.
    static func appendEscaped(_ text: ArraySlice<Unicode.Scalar>, to out: inout [Unicode.Scalar]) {
        for c in text {
            switch c {
            case "<": out += ["&", "l", "t", ";"]
            case ">": out += ["&", "g", "t", ";"]
            default: out.append(c)
            }
        }
    }

    /// JavaScript's `\s` and `trim()` set: ECMAScript WhiteSpace and LineTerminator.
    static func isJavaScriptSpace(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: false
        }
    }

    /// The tag's name as the package reads it: up to the first space, or the chunk minus its last character; trimmed,
    /// lower-cased, without a leading or trailing `/`.
    static func tagName(_ tag: ArraySlice<Unicode.Scalar>) -> String {
        let body = tag.dropFirst()
        var name: ArraySlice<Unicode.Scalar>
        if let space = body.firstIndex(where: isJavaScriptSpace) {
            name = body[..<space]
        } else if let last = body.last, last.value > 0xFFFF {
            // JavaScript drops one UTF-16 unit, half of this scalar; the lone surrogate left never names an element.
            name = body.dropLast()
            name.append("\u{FFFD}")
        } else {
            name = body.dropLast()
        }
        while let first = name.first, isJavaScriptSpace(first) { name = name.dropFirst() }
        while let last = name.last, isJavaScriptSpace(last) { name = name.dropLast() }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: name)
        var lowered = String(view).lowercased()
        if lowered.hasPrefix("/") { lowered.removeFirst() }
        if lowered.hasSuffix("/") { lowered.removeLast() }
        return lowered
    }
}

extension HTMLSanitizer {
    /// What replaces each tag: nothing, or a `[removed]` marker around a script/style body that a later pass cuts out.
    struct IgnoredTags {
        /// Output ranges (marker to closing marker) to cut once the scan is done.
        private var cuts: [Range<Int>] = []
        /// Where the current script/style body began in the output.
        private var bodyStart: Int?

        /// The replacement for `tag`, found at `position` of the output.
        mutating func replacement(for tag: ArraySlice<Unicode.Scalar>, at position: Int) -> [Unicode.Scalar] {
            guard HTMLSanitizer.bodyDroppingElements.contains(HTMLSanitizer.tagName(tag)) else { return [] }
            let closing = tag.count >= 2 && tag[tag.startIndex + 1] == "/"
            if closing {
                let marker = Array("[/removed]".unicodeScalars)
                cuts.append((bodyStart ?? position)..<(position + marker.count))
                bodyStart = nil
                return marker
            }
            // The package tests `!posStart`, so a body that began at output position 0 is restarted by a second opening.
            if bodyStart == nil || bodyStart == 0 { bodyStart = position }
            return Array("[removed]".unicodeScalars)
        }

        /// `output` without the cut ranges; an opening marker never closed stays as literal text.
        func removingBodies(from output: [Unicode.Scalar]) -> [Unicode.Scalar] {
            guard !cuts.isEmpty else { return output }
            var kept: [Unicode.Scalar] = []
            kept.reserveCapacity(output.count)
            var last = 0
            for cut in cuts {
                if cut.lowerBound > last { kept += output[last..<min(cut.lowerBound, output.count)] }
                last = cut.upperBound
            }
            if last < output.count { kept += output[last...] }
            return kept
        }
    }
}

extension Array where Element == Unicode.Scalar {
    /// The first index at or after `from` where `needle` starts, like JavaScript's `indexOf(needle, from)`.
    fileprivate func firstIndex(of needle: [Unicode.Scalar], from: Int) -> Int? {
        guard needle.count <= count, from <= count - needle.count else { return nil }
        var i = from
        while i <= count - needle.count {
            if self[i] == needle[0], self[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
