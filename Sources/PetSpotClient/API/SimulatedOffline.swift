import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A device without a network, as tests and the scenario engine's `deviceOffline` action need it: installed in every
/// `AnnouncementAPI` session, it fails each request to an origin marked offline with `URLError.notConnectedToInternet`
/// (-1009), exactly as Apple's URL loading system does when the phone has no network, so the error reaches the app's
/// mapping through the same layers as a real one. Requests to other origins pass through untouched.
///
/// Offline is kept per origin (scheme, host, port) rather than for the whole process because the engine runs several
/// scenarios in one process, each against its own backend; one scenario's device going offline must not touch another's.
/// URLProtocol properties set on a request do not survive into `canInit` on Linux FoundationNetworking, so they cannot carry it.
public final class SimulatedOffline: URLProtocol {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var offlineOrigins: Set<String> = []

    /// Marks the origin of `url` offline (`true`) or back online.
    public static func setOffline(_ offline: Bool, for url: URL) {
        let origin = Self.origin(of: url)
        lock.withLock {
            if offline { offlineOrigins.insert(origin) } else { offlineOrigins.remove(origin) }
        }
    }

    /// Whether requests to `url` currently fail as offline.
    public static func isOffline(_ url: URL) -> Bool {
        let origin = Self.origin(of: url)
        return lock.withLock { offlineOrigins.contains(origin) }
    }

    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? "http"
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }

    /// Takes the request only while its origin is offline.
    public override class func canInit(with request: URLRequest) -> Bool {
        request.url.map(isOffline) ?? false
    }

    /// The request unchanged.
    public override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    /// Fails at once, as a phone without a network does.
    public override func startLoading() {
        var info: [String: Any] = [NSLocalizedDescriptionKey: "The Internet connection appears to be offline."]
        if let url = request.url { info[NSURLErrorFailingURLErrorKey] = url }
        client?.urlProtocol(self, didFailWithError: URLError(.notConnectedToInternet, userInfo: info))
    }

    /// Nothing to stop: no connection was opened.
    public override func stopLoading() {}
}
