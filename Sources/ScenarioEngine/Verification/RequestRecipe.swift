import ContractKit
import ContractModel
import Foundation

/// How the verifier builds a check's request; the stateful parts resolve against `VerificationState` at send time.
public struct RequestRecipe: Sendable {
    /// What goes in the body.
    public enum Body: Sendable {
        /// No body.
        case none
        /// A JSON body; the values of fields the contracts declare unique become this run's own (`UniqueStandIns`), so a
        /// shared server never sees a false 409 and a documented duplicate meets what this run registered.
        case json(JSONValue)
        /// Bytes sent as they are (e.g. a non-JSON body).
        case raw(String)
        /// A JSON body larger than `bytes`.
        case oversizedJSON(bytes: Int)
        /// A multipart body with one file part.
        case multipart(part: String, file: SampleFile)
        /// A multipart body with the named parts, each a small PNG file or a short text field, in name order.
        case multipartParts([(name: String, isFile: Bool)])
    }

    /// Which credentials go in the Authorization header.
    public enum Credentials: Sendable {
        /// None beyond what `headers` says.
        case none
        /// Basic with the created announcement's id and password.
        case basicCreated
        /// Basic with the created id and a password that is not its own.
        case basicWrongPassword
        /// Basic with an id no announcement has, and the created password.
        case basicUnknownAnnouncement
        /// The operator's admin credential (`verify --admin-token`) as the whole header value.
        case adminToken
    }

    /// The HTTP method.
    public var method: String
    /// The path template; `{id}` becomes the created announcement's id unless `pathParameters` says otherwise.
    public var pathTemplate: String
    /// Explicit path parameter values (`{unknown}` means a fresh UUID no server holds).
    public var pathParameters: [String: String]
    /// Query parameters, in order; `{createdLatitude}`/`{createdLongitude}` resolve to the created announcement's location.
    public var query: [(String, String)]
    /// Extra headers.
    public var headers: [String: String]
    /// The body.
    public var body: Body
    /// The Authorization header to build.
    public var credentials: Credentials
    /// Requests sent first, their answers not judged: the state the documented answer needs (the account a login uses).
    public var before: [RequestRecipe] = []
    /// The name of the success check (`contract › example`) whose create this request sends again for its conflict: only
    /// meaningful once that check's create went through.
    public var repeats: String?
}

extension RequestRecipe.Body {
    var isJSON: Bool {
        if case .json = self { return true }
        return false
    }
}

extension Contract {
    /// This create's request with its first example body, `body`'s values (a JSON object) written over it.
    func recipe(signingUpWith body: RequestRecipe.Body) -> RequestRecipe {
        var sent = request.examples.first?.body?.objectValue ?? JSONObject()
        if case .json(let value) = body, let values = value.objectValue {
            for (key, value) in values { sent[key] = value }
        }
        return RequestRecipe(method: method, pathTemplate: pathTemplate, pathParameters: [:], query: [], headers: [:],
                             body: .json(.object(sent)), credentials: .none)
    }
}

/// A file the verifier uploads: valid image bytes, text, or an image of a given size.
public enum SampleFile: Sendable {
    /// A 1×1 PNG.
    case smallPNG
    /// Plain text, which no magic-byte check accepts as an image.
    case text
    /// A PNG header padded to exactly `bytes` bytes.
    case paddedPNG(bytes: Int)

    /// The file's bytes.
    var data: Data {
        switch self {
        case .smallPNG: return Self.onePixelPNG
        case .text: return Data("this is not an image\n".utf8)
        case .paddedPNG(let bytes):
            var data = Self.onePixelPNG
            if data.count < bytes { data.append(Data(count: bytes - data.count)) }
            return data
        }
    }

    /// The file name and declared type sent in the part headers.
    var fileName: String { self == .text ? "notes.txt" : "photo.png" }
    var mimeType: String { self == .text ? "text/plain" : "image/png" }

    static func == (lhs: SampleFile, rhs: SampleFile) -> Bool {
        switch (lhs, rhs) {
        case (.smallPNG, .smallPNG), (.text, .text): return true
        case (.paddedPNG(let a), .paddedPNG(let b)): return a == b
        default: return false
        }
    }

    // A valid 1×1 transparent PNG.
    static let onePixelPNG = Data(base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==") ?? Data()
}
