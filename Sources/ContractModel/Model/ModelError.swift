import ContractKit

/// An error answer of the model: status, machine code, message and the offending field, sent in the service file's
/// error envelope. The server-wide answers (not found, payload too large) carry only their role here; their status,
/// code and message come from `service.json` when the answer is written.
public struct ModelError: Error, Sendable, Equatable {
    /// A server-wide answer whose text the service file states.
    public enum Role: Sendable, Equatable {
        /// `notFound`: no such record or route.
        case notFound
        /// `errorHandler.payloadTooLarge`: a body or file over its limit.
        case payloadTooLarge
        /// `errorHandler.internal`: an uncaught failure.
        case internalError
    }

    /// The HTTP status.
    public let status: HTTPStatus
    /// The envelope's `code`, as the contract states it (empty for a role, whose code is the service file's).
    public let code: String
    /// The envelope's `message`, written for a person (empty for a role without its own message).
    public let message: String
    /// The envelope's `field`, when the error is about one input.
    public let field: String?
    /// Raised by the body parser, which runs before the request id exists: no `request-id` header, `requestId` "unknown".
    public var beforeRequestID = false
    /// The server-wide answer this stands for; nil: status, code and message are the answer.
    public var role: Role?

    /// Creates an error answer.
    public init(_ status: HTTPStatus, _ code: String, _ message: String, field: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
    }

    /// The answer the service file states, e.g. its not-found or body-parser answer.
    init(_ answer: ServiceAnswer) {
        self.init(HTTPStatus(statusCode: answer.status), answer.code, answer.message, field: answer.field)
    }

    private init(role: Role, status: HTTPStatus, message: String = "") {
        self.init(status, "", message)
        self.role = role
    }

    /// The service file's not-found answer; `message`, when given, replaces its message.
    static func notFound(_ message: String? = nil) -> ModelError {
        ModelError(role: .notFound, status: .notFound, message: message ?? "")
    }

    /// The service file's error-handler 413 (one message whatever the limit that was hit, even a 20 MiB photo).
    static func payloadTooLarge() -> ModelError {
        ModelError(role: .payloadTooLarge, status: .payloadTooLarge)
    }

    /// The service file's answer to an uncaught failure.
    static let internalError = ModelError(role: .internalError, status: .internalServerError)

    /// This error, as the body parser raises it (before the request id exists).
    func fromBodyParser() -> ModelError {
        var copy = self
        copy.beforeRequestID = true
        return copy
    }

    /// The answer to write: a role's status, code and message from `service` (a role's own message wins), else this.
    func resolved(by service: ServiceFile) -> (status: Int, code: String, message: String, field: String?) {
        guard let role else { return (Int(status.code), code, message, field) }
        let answer: ServiceAnswer
        switch role {
        case .notFound: answer = service.notFound
        case .payloadTooLarge: answer = service.payloadTooLarge
        case .internalError: answer = service.internalError
        }
        return (answer.status, answer.code, message.isEmpty ? answer.message : message, field ?? answer.field)
    }
}
