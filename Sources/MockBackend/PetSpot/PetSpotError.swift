import NIOHTTP1

/// An error answer of the PetSpot API: status, machine code, message and the offending field, sent in the error envelope.
public struct PetSpotError: Error, Sendable, Equatable {
    /// The HTTP status.
    public let status: HTTPResponseStatus
    /// The envelope's `code`, e.g. `MISSING_VALUE`.
    public let code: String
    /// The envelope's `message`, written for a person.
    public let message: String
    /// The envelope's `field`, when the error is about one input.
    public let field: String?
    /// Raised by the body parser, which runs before the request id exists: no `request-id` header, `requestId` "unknown".
    public var beforeRequestID = false

    /// Creates an error answer.
    public init(_ status: HTTPResponseStatus, _ code: String, _ message: String, field: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
    }

    static func notFound(_ message: String = "Resource not found") -> PetSpotError {
        PetSpotError(.notFound, "NOT_FOUND", message)
    }

    static func invalidFormat(_ message: String, field: String? = nil) -> PetSpotError {
        PetSpotError(.badRequest, "INVALID_FORMAT", message, field: field)
    }

    /// The real error handler's one 413 message, whatever the limit that was hit (even a 20 MiB photo).
    static let payloadTooLargeMessage = "Request payload exceeds maximum size limit (100KB)"

    static func payloadTooLarge() -> PetSpotError {
        PetSpotError(.payloadTooLarge, "PAYLOAD_TOO_LARGE", payloadTooLargeMessage)
    }

    /// This error, as the body parser raises it (before the request id exists).
    func fromBodyParser() -> PetSpotError {
        var copy = self
        copy.beforeRequestID = true
        return copy
    }

    static func unauthenticated(_ message: String) -> PetSpotError {
        PetSpotError(.unauthorized, "UNAUTHENTICATED", message)
    }
}
