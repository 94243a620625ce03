/// The result of a Pact export: the document and every example that could not go into it, with the reason.
public struct PactExport: Sendable {
    /// An example left out of the pact.
    public struct Skipped: Sendable, Equatable, CustomStringConvertible {
        /// The contract the example belongs to.
        public let contractID: String
        /// The example's name.
        public let exampleName: String
        /// Why a Pact v3 interaction cannot carry it, for a person.
        public let reason: String

        /// "uploadPhoto: photo stored: reason".
        public var description: String { "\(contractID): \(exampleName): \(reason)" }
    }

    /// The Pact v3 document.
    public let document: JSONValue
    /// How many interactions the document holds.
    public let interactionCount: Int
    /// The examples that are not in the document.
    public let skipped: [Skipped]

    /// The document as pretty-printed JSON text.
    public var text: String { document.serialized(pretty: true) + "\n" }
}
