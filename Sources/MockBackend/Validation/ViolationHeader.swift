import ContractModel
import NIOHTTP1

/// The response headers that tell a client, in its own logs, how the exchange left its contract.
public enum ViolationHeader {
    /// One header line per violation: `server <contract id> /id: expected a UUID, got "x"`.
    public static let name = "x-spotcheck-violation"
    /// One header line per listed known server defect the exchange showed.
    public static let knownDefectName = "x-spotcheck-known-defect"
    /// One header line per note: a difference from an answer the model assumed where the contracts state nothing.
    public static let noteName = "x-spotcheck-note"
    /// At most this many lines are added; the rest are in the journal and at `GET /__spotcheck/violations`.
    static let maxLines = 8

    /// Adds the lines for `violations` to `headers`.
    static func add(_ violations: [ExchangeViolation], to headers: inout HTTPHeaders) {
        for violation in violations.prefix(maxLines) {
            headers.add(name: violation.isNote ? noteName : violation.isViolation ? name : knownDefectName, value: value(violation))
        }
    }

    /// A header-safe rendering: printable ASCII only (anything else becomes `?`), at most 400 characters.
    public static func value(_ violation: ExchangeViolation) -> String {
        var text = "\(violation.side.rawValue) \(violation.contract ?? "-") \(violation.pointer): expected \(violation.expected), got \(violation.got)"
        if let defect = violation.knownDefect { text = "\(defect): " + text }
        let safe = String(String.UnicodeScalarView(text.unicodeScalars.prefix(400).map { (0x20..<0x7F).contains($0.value) ? $0 : "?" }))
        return safe
    }
}
