import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns any failure into exactly one ``AlertKind``; see docs/client-error-mapping.md for the why.
public enum ErrorMapping {
    /// The URLError codes that mean the device could not talk to the server at all.
    public static let noConnectionCodes: Set<URLError.Code> = [
        .notConnectedToInternet,
        .networkConnectionLost,
        .cannotConnectToHost,
        .cannotFindHost,
        .dnsLookupFailed,
        .timedOut,
        .dataNotAllowed,
        .internationalRoamingOff,
        .callIsActive,
    ]

    /// The alert for a failure: `.noConnection` when a no-connection `URLError` is anywhere in the cause chain.
    public static func alert(for error: any Error) -> AlertKind {
        connectivityError(in: error) != nil ? .noConnection : .generic
    }

    /// The first no-connection `URLError` found by following wrappers (``UnderlyingErrorProviding``
    /// and `NSUnderlyingErrorKey`), or `nil` when the failure is not about connectivity.
    public static func connectivityError(in error: any Error) -> URLError? {
        for link in chain(of: error) {
            if let urlError = link as? URLError {
                if noConnectionCodes.contains(urlError.code) { return urlError }
                continue
            }
            if link is any UnderlyingErrorProviding { continue }
            let nsError = link as NSError
            if nsError.domain == NSURLErrorDomain, let code = urlErrorCode(nsError.code), noConnectionCodes.contains(code) {
                return URLError(code, userInfo: nsError.userInfo)
            }
        }
        return nil
    }

    /// `error` and the errors it wraps, outermost first: through ``UnderlyingErrorProviding``, else `NSUnderlyingErrorKey`.
    static func chain(of error: any Error) -> [any Error] {
        var links: [any Error] = []
        var current: (any Error)? = error
        // A bound keeps a cyclic chain of wrappers from looping forever.
        while let link = current, links.count < 16 {
            links.append(link)
            if let wrapper = link as? any UnderlyingErrorProviding {
                current = wrapper.underlyingError
            } else {
                current = (link as NSError).userInfo[NSUnderlyingErrorKey] as? any Error
            }
        }
        return links
    }
}
