/// A number as JavaScript's `Number.prototype.toString` writes it, which is how `JSON.stringify` writes numbers.
///
/// Swift and JavaScript pick the same shortest digits that round-trip; only the layout differs: JavaScript writes
/// every magnitude from 1e-7 up to 1e21 without an exponent (`1e+21`, `1.5e-7` and `0.000001` are its forms).
enum JavaScriptNumberText {
    /// The text of a finite number; JSON has no text for NaN or the infinities, which `JSON.stringify` writes as null.
    static func text(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == 0 { return "0" }
        if n.rounded() == n && abs(n) < 1e15 { return String(Int64(n)) }
        // Swift writes a fraction with 1e-4 ≤ |n| < 1e15 without an exponent, with the same digits and layout as
        // JavaScript (only its integers differ, by a ".0", and they were written above): most stored coordinates take
        // this path, with no splitting.
        let magnitude = abs(n)
        if magnitude >= 1e-4 && magnitude < 1e15 { return n.description }
        return layout(n)
    }

    /// The general case: the shortest digits laid out by JavaScript's rules.
    static func layout(_ n: Double) -> String {
        let (digits, pointPosition) = shortestDigits(abs(n))
        let sign = n < 0 ? "-" : ""
        let k = digits.count, position = pointPosition
        if k <= position && position <= 21 {
            return sign + digits + String(repeating: "0", count: position - k)
        }
        if 0 < position && position <= 21 {
            let split = digits.index(digits.startIndex, offsetBy: position)
            return sign + digits[..<split] + "." + digits[split...]
        }
        if -6 < position && position <= 0 {
            return sign + "0." + String(repeating: "0", count: -position) + digits
        }
        let exponent = position - 1
        let mantissa = k == 1 ? digits : String(digits.prefix(1)) + "." + digits.dropFirst()
        return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + String(abs(exponent))
    }

    /// The shortest round-trip digits of a positive number without leading or trailing zeros, and where the decimal
    /// point goes: the value is `0.digits × 10^pointPosition`.
    private static func shortestDigits(_ n: Double) -> (String, Int) {
        let description = "\(n)"
        let parts = description.split(separator: "e", maxSplits: 1)
        let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let mantissa = parts[0].split(separator: ".", maxSplits: 1)
        let whole = String(mantissa[0]), fraction = mantissa.count > 1 ? String(mantissa[1]) : ""
        var digits = Substring(whole + fraction)
        var pointPosition = whole.count + exponent
        while digits.first == "0" {
            digits = digits.dropFirst()
            pointPosition -= 1
        }
        while digits.last == "0" { digits = digits.dropLast() }
        return (String(digits), pointPosition)
    }
}
