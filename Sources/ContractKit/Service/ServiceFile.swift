import Foundation

/// `service.json` beside the contracts: what the server does around every endpoint (request ids, the error envelope,
/// headers on every answer, preflights, routing, the answers no contract owns, the JSON body parser, ETags, static files).
///
/// Not a contract. A folder without it gets `plain`: no request id, no extra headers, strict routing, generic answers.
public struct ServiceFile: Sendable, Equatable {
    /// The file's name in a contracts folder.
    public static let fileName = "service.json"

    /// One response header with its value.
    public struct Header: Sendable, Equatable {
        /// The header name as written.
        public let name: String
        /// Its value.
        public let value: String

        /// A header.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The request id every answer after it is drawn carries.
    public struct RequestID: Sendable, Equatable {
        /// The response header carrying it.
        public var header: String
        /// The named generator (`alphanumeric-10`).
        public var generator: String
        /// What the envelope's `requestId` says for answers given before the id exists.
        public var unknownValue: String
    }

    /// The error envelope every error answer is sent in.
    public struct ErrorEnvelope: Sendable, Equatable {
        /// The members of the envelope object, in order.
        public enum Member: String, Sendable, CaseIterable {
            case requestId, code, message, field
        }
        /// The key wrapping the envelope object (`{"error": {...}}`); nil sends the object bare.
        public var key: String?
        /// The members in the order they are written; `field` is left out when an answer has none.
        public var members: [Member]
        /// The envelope's Content-Type.
        public var contentType: String
    }

    /// How a CORS preflight (`OPTIONS`) is answered.
    public struct Preflight: Sendable, Equatable {
        /// Whether `OPTIONS` on any path is a preflight answered before routing; false routes it like any method.
        public var enabled: Bool
        /// Its status.
        public var status: Int
        /// The headers it carries instead of `headers` (the CORS layer answers before the layers that add those).
        public var headers: [Header]
        /// The methods an open preflight grants (`--allow-browser-admin`); others grant what the contracts' browser-facing endpoints need.
        public var openMethods: String
    }

    /// The JSON body parser in front of every endpoint whose contract takes a JSON body.
    public struct BodyParser: Sendable, Equatable {
        /// The largest body it reads; a larger one is `tooLarge`.
        public var limitBytes: Int
        /// Whether its answers come before the request id exists (no id header, `requestId` is `unknownValue`).
        public var beforeRequestID: Bool
        /// A body over the limit.
        public var tooLarge: ServiceAnswer
        /// A body that is not JSON.
        public var malformed: ServiceAnswer
        /// A `charset` that is not `utf-*` (`{charset}` is the charset in upper case).
        public var unsupportedCharset: ServiceAnswer
        /// What it makes of an escaped lone surrogate (`loneSurrogates`): `malformed`, or text holding U+FFFD.
        public var loneSurrogates: LoneSurrogatePolicy = .refuse
    }

    /// The request id; nil: answers carry none and the envelope has no `requestId`.
    public var requestID: RequestID?
    /// The error envelope.
    public var errorEnvelope: ErrorEnvelope
    /// Headers every answer but a preflight carries, in order.
    public var headers: [Header]
    /// Preflights.
    public var preflight: Preflight
    /// How paths are matched to contracts.
    public var routing: RoutingOptions
    /// No contract's path and method match (an unknown method on a known path included).
    public var notFound: ServiceAnswer
    /// A path parameter of a matching path cannot be percent-decoded.
    public var undecodableParameter: ServiceAnswer
    /// The JSON body parser.
    public var bodyParser: BodyParser
    /// The error handler's answer to any body or file over its limit (one message whatever the limit).
    public var payloadTooLarge: ServiceAnswer
    /// An uncaught failure.
    public var internalError: ServiceAnswer
    /// The named ETag algorithm for answers with a body (`express-weak-etag`), which also answers 304; nil sends none.
    public var etag: String?
    /// Mount paths of the static file server (e.g. `/static`): the contracts under them are static files (no ETag
    /// from `etag`, an undecodable name is a miss).
    public var staticFiles: [String]
    /// The admin credential the real server hard-codes, used by a mock on loopback when no `--admin-token` is given
    /// (`adminTokenOnLoopback`); nil: without `--admin-token` every admin-token check refuses.
    public var adminTokenOnLoopback: String? = nil

    /// The defaults of a folder without `service.json`: nothing PetSpot-specific.
    public static let plain = ServiceFile(
        requestID: nil,
        errorEnvelope: ErrorEnvelope(key: "error", members: [.requestId, .code, .message, .field], contentType: "application/json; charset=utf-8"),
        headers: [],
        preflight: Preflight(enabled: false, status: 204, headers: [], openMethods: "GET,HEAD,PUT,PATCH,POST,DELETE"),
        routing: RoutingOptions(),
        notFound: ServiceAnswer(status: 404, code: "HTTP_404", message: "Not Found"),
        undecodableParameter: ServiceAnswer(status: 400, code: "HTTP_400", message: "Bad Request"),
        bodyParser: BodyParser(
            limitBytes: 1_048_576, beforeRequestID: false,
            tooLarge: ServiceAnswer(status: 413, code: "HTTP_413", message: "Payload Too Large"),
            malformed: ServiceAnswer(status: 400, code: "HTTP_400", message: "Bad Request"),
            unsupportedCharset: ServiceAnswer(status: 415, code: "HTTP_415", message: "Unsupported Media Type")),
        payloadTooLarge: ServiceAnswer(status: 413, code: "HTTP_413", message: "Payload Too Large"),
        internalError: ServiceAnswer(status: 500, code: "HTTP_500", message: "Internal Server Error"),
        etag: nil,
        staticFiles: [])

    /// The request id generators the model knows.
    public static let requestIDGenerators = ["alphanumeric-10"]
    /// The ETag algorithms the model knows.
    public static let etagAlgorithms = ["express-weak-etag"]
}
