import ContractKit
import ContractModel
import Foundation

/// A raw HTTP request a scenario sends itself, e.g. to check what the backend answers to a bad Basic auth header.
public struct HTTPStepRequest: Sendable {
    /// The method, e.g. `POST`.
    public var method: String
    /// The path and query; `${name}` placeholders are replaced with captured values.
    public var path: String
    /// Extra headers; values may use placeholders.
    public var headers: [(name: String, value: String)]
    /// Basic credentials to send as `Authorization: Basic base64(user:password)`; values may use placeholders.
    public var basicAuth: (user: String, password: String)?
    /// The body to send.
    public var body: Body
    /// Values to capture from the JSON answer for later steps: placeholder name → JSON pointer.
    public var capture: [(name: String, pointer: String)]

    /// What the request carries.
    public enum Body: Sendable {
        /// No body.
        case none
        /// A JSON body sent with `Content-Type: application/json`; string values may use placeholders.
        case json(JSONValue)
        /// A text body sent as is (the scenario sets any Content-Type header itself).
        case text(String)
        /// A multipart/form-data body with one file part.
        case multipart(part: String, filename: String, photo: Photo)
    }

    /// A request with these parts.
    public init(method: String, path: String, headers: [(name: String, value: String)] = [], body: Body = .none,
                capture: [(name: String, pointer: String)] = [])
    {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.capture = capture
    }
}
