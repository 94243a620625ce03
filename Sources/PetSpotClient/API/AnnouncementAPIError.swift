import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why an ``AnnouncementAPI`` call failed; the transport case keeps the `URLError` untouched.
public enum AnnouncementAPIError: Error, Sendable, CustomStringConvertible, UnderlyingErrorProviding {
    /// The request never got an HTTP answer (offline, refused, timed out, connection lost, ...).
    case transport(operation: AnnouncementOperation, error: URLError)
    /// An HTTP answer with a status other than the promised one.
    case http(HTTPStatusFailure)
    /// The promised status with a body the client cannot read.
    case undecodableBody(UndecodableBody)

    /// The endpoint the failed call went to.
    public var operation: AnnouncementOperation {
        switch self {
        case .transport(let operation, _): operation
        case .http(let failure): failure.operation
        case .undecodableBody(let body): body.operation
        }
    }

    /// The `URLError` for transport failures, so mapping never loses it.
    public var underlyingError: (any Error)? {
        if case .transport(_, let error) = self { return error }
        return nil
    }

    /// A sentence for a person.
    public var description: String {
        switch self {
        case .transport(let operation, let error):
            "\(operation.rawValue) got no HTTP answer: URLError \(error.code.rawValue) (\(error.localizedDescription))"
        case .http(let failure): failure.description
        case .undecodableBody(let body): body.description
        }
    }
}
