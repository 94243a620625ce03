import Foundation

/// JavaScript's number parsing, where the real backend's behaviour depends on it (`javascript-parseFloat`).
public enum JavaScriptNumber {
    /// `parseFloat`: leading white space skipped, the longest valid decimal prefix read (`12abc` is 12), nil for NaN.
    public static func parseFloat(_ text: String) -> Double? {
        let scalars = Array(text.unicodeScalars.drop { JavaScriptText.isWhiteSpace($0.value) })
        var i = 0
        var prefix = ""
        if i < scalars.count, scalars[i] == "+" || scalars[i] == "-" {
            prefix.unicodeScalars.append(scalars[i])
            i += 1
        }
        let rest = String(String.UnicodeScalarView(scalars[i...]))
        if rest.hasPrefix("Infinity") { return prefix == "-" ? -.infinity : .infinity }
        var digits = ""
        var sawDigit = false
        var sawDot = false
        while i < scalars.count {
            let c = scalars[i]
            if ("0"..."9").contains(c) {
                sawDigit = true
            } else if c == ".", !sawDot {
                sawDot = true
            } else {
                break
            }
            digits.unicodeScalars.append(c)
            i += 1
        }
        guard sawDigit else { return nil }
        // An exponent counts only when at least one digit follows it.
        if i < scalars.count, scalars[i] == "e" || scalars[i] == "E" {
            var j = i + 1
            var exponent = "e"
            if j < scalars.count, scalars[j] == "+" || scalars[j] == "-" {
                exponent.unicodeScalars.append(scalars[j])
                j += 1
            }
            var expDigits = ""
            while j < scalars.count, ("0"..."9").contains(scalars[j]) {
                expDigits.unicodeScalars.append(scalars[j])
                j += 1
            }
            if !expDigits.isEmpty { digits += exponent + expDigits }
        }
        return Double(prefix + (digits.hasPrefix(".") ? "0" + digits : digits))
    }
}
