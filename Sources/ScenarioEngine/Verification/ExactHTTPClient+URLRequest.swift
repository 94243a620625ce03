import Foundation
import MockBackend

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MockBackend stays free of FoundationNetworking (and the libcurl it loads) so `spotcheck-serve` starts small;
// the verifier builds URLRequests, so the bridge lives here.
extension ExactHTTPClient {
    /// Sends `request` exactly as built (plain http only) and returns the whole answer.
    public func send(_ request: URLRequest) async throws(ProxyError) -> Answer {
        guard let url = request.url else { throw .unsupportedTarget("(no URL)", reason: "only http:// URLs with a host can be sent") }
        return try await send(method: request.httpMethod ?? "GET", url: url, headers: request.allHTTPHeaderFields ?? [:], body: request.httpBody ?? Data())
    }
}
