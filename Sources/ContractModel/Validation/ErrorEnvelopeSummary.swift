import ContractKit

/// The `code` and `field` of an error envelope (`{"error": {"code", "field", ...}}`), so a journal line says why a request was refused.
public struct ErrorEnvelopeSummary: Sendable, Equatable {
    /// The error code of the envelope.
    public var code: String?
    /// The field the error names, if any.
    public var field: String?

    /// Reads the envelope from a body; nil when the body is not a JSON error envelope.
    public init?(body: [UInt8]) {
        guard body.first == UInt8(ascii: "{"),
              let value = try? JSONValue(parsing: body),
              let error = value["error"] else { return nil }
        code = error["code"]?.stringValue
        field = error["field"]?.stringValue
        if code == nil && field == nil { return nil }
    }
}
