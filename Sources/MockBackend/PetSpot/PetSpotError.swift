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

    static func payloadTooLarge(_ message: String) -> PetSpotError {
        PetSpotError(.payloadTooLarge, "PAYLOAD_TOO_LARGE", message)
    }

    static func unauthenticated(_ message: String) -> PetSpotError {
        PetSpotError(.unauthorized, "UNAUTHENTICATED", message)
    }
}
