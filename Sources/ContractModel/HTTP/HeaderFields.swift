/// An HTTP header block as the model reads and writes it: names as sent, values in order, names compared
/// case-insensitively (ASCII letters only, as HTTP tokens fold).
///
/// The model has no network stack; each face (the NIO server, verify's in-process oracle) converts its own header type
/// at the edge, so the executor sees one header type whoever asks.
public struct HeaderFields: Sendable, Equatable {
    /// The fields in the order they were sent or added.
    public private(set) var fields: [(name: String, value: String)]

    /// An empty block.
    public init() { fields = [] }

    /// The fields given, in order.
    public init(_ fields: [(name: String, value: String)]) { self.fields = fields }

    /// Appends a field, keeping any with the same name.
    public mutating func add(name: String, value: String) { fields.append((name, value)) }

    /// Removes every field named `name` and appends one with `value`.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        add(name: name, value: value)
    }

    /// Removes every field named `name`.
    public mutating func remove(name: String) { fields.removeAll { Self.same($0.name, name) } }

    /// The first value of `name`, if any.
    public func first(name: String) -> String? { fields.first { Self.same($0.name, name) }?.value }

    /// Every value of `name`, in order.
    public subscript(name: String) -> [String] { fields.filter { Self.same($0.name, name) }.map(\.value) }

    /// Whether a field named `name` is present.
    public func contains(name: String) -> Bool { fields.contains { Self.same($0.name, name) } }

    /// The number of fields.
    public var count: Int { fields.count }

    public static func == (lhs: HeaderFields, rhs: HeaderFields) -> Bool {
        lhs.fields.count == rhs.fields.count && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// HTTP's token comparison: only ASCII letters fold.
    static func same(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return zip(a.utf8, b.utf8).allSatisfy { ASCIICase.lower($0) == ASCIICase.lower($1) }
    }
}

extension HeaderFields: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }
}

extension HeaderFields: Sequence {
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }
}
