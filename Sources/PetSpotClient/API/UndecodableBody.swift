/// A success status whose body could not be read as the promised type.
public struct UndecodableBody: Sendable, Equatable, CustomStringConvertible {
    /// The endpoint that answered.
    public let operation: AnnouncementOperation
    /// The status received.
    public let status: Int
    /// What was wrong, e.g. the missing key and its path.
    public let reason: String
    /// The start of the raw body, for diagnostics.
    public let bodyExcerpt: String
    /// Where in the body decoding failed, as a JSON pointer (`/photoUrl`, `/0/status`), when the decoder said.
    public let codingPath: String?

    /// Creates a description of an unreadable body.
    public init(operation: AnnouncementOperation, status: Int, reason: String, bodyExcerpt: String, codingPath: String? = nil) {
        self.operation = operation
        self.status = status
        self.reason = reason
        self.bodyExcerpt = bodyExcerpt
        self.codingPath = codingPath
    }

    /// A sentence for a person.
    public var description: String {
        "\(operation.rawValue) answered HTTP \(status) with a body the client cannot read: \(reason); body starts with: \(bodyExcerpt)"
    }
}
