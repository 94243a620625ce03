import ContractModel
import NIOHTTP1

/// The response header that carries what the model assumed for an answer (`MockResponse.assumptions`), one line each,
/// so whoever reads the answer over HTTP (verify's lockstep, a client developer's logs) can tell a stated answer from a
/// guess. Lines are percent-encoded UTF-8, so a sentence survives the header's ASCII and comes back whole.
public enum AssumptionHeader {
    /// `x-spotcheck-assumption`: the harness's own namespace, which comparisons of two servers leave out.
    public static let name = "x-spotcheck-assumption"
    /// At most this many lines are sent; an answer decided by more guesses says so in the last one.
    static let maxLines = 8

    /// Adds one line per assumption to `headers`.
    static func add(_ assumptions: [String], to headers: inout HTTPHeaders) {
        for assumption in assumptions.prefix(maxLines) { headers.add(name: name, value: encode(assumption)) }
        if assumptions.count > maxLines {
            headers.add(name: name, value: encode("and \(assumptions.count - maxLines) more assumption(s)"))
        }
    }

    /// The assumptions an answer's headers carry, decoded, in order.
    public static func assumptions(in headers: [(name: String, value: String)]) -> [String] {
        headers.filter { $0.name.lowercased() == name }.map { $0.value.removingPercentEncoding ?? $0.value }
    }

    /// Printable ASCII but `%` as is; every other byte of the UTF-8 as `%XX`.
    static func encode(_ text: String) -> String {
        var out = ""
        // Cut by characters, never inside one: a cut sequence would not decode.
        for byte in String(text.prefix(400)).utf8 {
            if (0x20..<0x7F).contains(byte), byte != UInt8(ascii: "%") {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
