/// One header line as sent, kept in order so a journal entry shows exactly what crossed the wire.
public struct HeaderField: Sendable, Codable, Equatable {
    /// The header name as sent.
    public var name: String
    /// The header value as sent.
    public var value: String

    /// A header line.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// The lines of a header block, in order.
    package static func list(_ headers: HeaderFields) -> [HeaderField] {
        headers.map { HeaderField(name: $0.name, value: $0.value) }
    }

    /// Whether this line's name is `other`, compared as HTTP does: ASCII letters case-insensitively, everything else exactly.
    public func hasName(_ other: String) -> Bool {
        // Looked up several times per validated exchange; Foundation's caseInsensitiveCompare was 4 % of a GET.
        name.utf8.elementsEqual(other.utf8) { ASCIICase.lower($0) == ASCIICase.lower($1) }
    }
}
