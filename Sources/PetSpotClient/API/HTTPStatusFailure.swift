/// An answer whose status is not the one the endpoint promises for success.
public struct HTTPStatusFailure: Sendable, Equatable, CustomStringConvertible {
    /// The endpoint that answered.
    public let operation: AnnouncementOperation
    /// The status received.
    public let status: Int
    /// The status the endpoint promises on success (e.g. 201 for create and upload).
    public let expectedStatus: Int
    /// The decoded error envelope, when the body was one.
    public let envelope: APIErrorEnvelope?
    /// The start of the raw body, for diagnostics.
    public let bodyExcerpt: String

    /// Creates a failure description.
    public init(operation: AnnouncementOperation, status: Int, expectedStatus: Int, envelope: APIErrorEnvelope?, bodyExcerpt: String) {
        self.operation = operation
        self.status = status
        self.expectedStatus = expectedStatus
        self.envelope = envelope
        self.bodyExcerpt = bodyExcerpt
    }

    /// A sentence for a person.
    public var description: String {
        var text = "\(operation.rawValue) answered HTTP \(status), expected \(expectedStatus)"
        if let envelope {
            text += " (\(envelope.code)"
            if let field = envelope.field { text += ", field \(field)" }
            if let message = envelope.message { text += ": \(message)" }
            text += ")"
        } else if !bodyExcerpt.isEmpty {
            text += "; body starts with: \(bodyExcerpt)"
        }
        return text
    }
}
