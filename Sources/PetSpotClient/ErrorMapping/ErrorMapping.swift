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
        var current: (any Error)? = error
        // A bound keeps a cyclic chain of wrappers from looping forever.
        for _ in 0..<16 {
            guard let error = current else { return nil }
            if let urlError = error as? URLError {
                if noConnectionCodes.contains(urlError.code) { return urlError }
                current = urlError.userInfo[NSUnderlyingErrorKey] as? any Error
                continue
            }
            if let wrapper = error as? any UnderlyingErrorProviding {
                current = wrapper.underlyingError
                continue
            }
            let nsError = error as NSError
            if nsError.domain == NSURLErrorDomain {
                if let code = urlErrorCode(nsError.code), noConnectionCodes.contains(code) {
                    return URLError(code, userInfo: nsError.userInfo)
                }
            }
            current = nsError.userInfo[NSUnderlyingErrorKey] as? any Error
        }
        return nil
    }
}
