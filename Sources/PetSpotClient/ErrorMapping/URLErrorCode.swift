import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLError.Code` for a raw `NSURLErrorDomain` code. Apple's initializer is non-failable and
/// Linux's is failable; returning an optional compiles without warnings on both.
func urlErrorCode(_ rawValue: Int) -> URLError.Code? {
    URLError.Code(rawValue: rawValue)
}
