/// An HTTP status code as the model answers it; the faces turn it into their own status type at the edge.
public struct HTTPStatus: Sendable, Hashable {
    /// The three-digit code.
    public let code: Int

    /// The status with this code.
    public init(statusCode: Int) { code = statusCode }

    /// 200.
    public static let ok = HTTPStatus(statusCode: 200)
    /// 201.
    public static let created = HTTPStatus(statusCode: 201)
    /// 204.
    public static let noContent = HTTPStatus(statusCode: 204)
    /// 304.
    public static let notModified = HTTPStatus(statusCode: 304)
    /// 400.
    public static let badRequest = HTTPStatus(statusCode: 400)
    /// 404.
    public static let notFound = HTTPStatus(statusCode: 404)
    /// 413.
    public static let payloadTooLarge = HTTPStatus(statusCode: 413)
    /// 500.
    public static let internalServerError = HTTPStatus(statusCode: 500)
}
