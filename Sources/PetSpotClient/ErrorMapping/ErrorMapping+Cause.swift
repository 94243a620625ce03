import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ErrorMapping {
    /// What the networking layer reported behind `error`: the innermost `URLError`, HTTP status or decoding failure in
    /// the cause chain, or `.other` when none is found (e.g. a draft the client refused to send).
    public static func cause(for error: any Error) -> FailureCause {
        var fallback = FailureCause(kind: .other, detail: String(describing: error))
        for link in chain(of: error) {
            if let urlError = link as? URLError {
                return FailureCause(kind: .urlError, domain: NSURLErrorDomain, code: urlError.code.rawValue)
            }
            if let api = link as? AnnouncementAPIError {
                switch api {
                case .transport(_, let urlError):
                    return FailureCause(kind: .urlError, domain: NSURLErrorDomain, code: urlError.code.rawValue)
                case .http(let failure):
                    return FailureCause(kind: .httpStatus, status: failure.status)
                case .undecodableBody(let body):
                    return FailureCause(kind: .decoding, status: body.status, detail: body.reason, decodingPath: body.codingPath)
                }
            }
            if let submission = link as? SubmissionError {
                switch submission {
                case .invalidManagementPassword(_, let password):
                    return FailureCause(kind: .decoding, status: 201, detail: "managementPassword \"\(password)\" is not 6 digits")
                case .invalidDraft(let problems):
                    fallback = FailureCause(kind: .other, detail: "nothing sent: " + problems.map(\.description).joined(separator: "; "))
                case .createFailed, .photoUploadFailed:
                    break
                }
            }
            if link is any UnderlyingErrorProviding { continue }
            let nsError = link as NSError
            if nsError.domain == NSURLErrorDomain {
                return FailureCause(kind: .urlError, domain: NSURLErrorDomain, code: nsError.code)
            }
        }
        return fallback
    }
}
