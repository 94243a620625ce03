import ContractModel
import Foundation
import NIOHTTP1

extension MockServer {
    /// The answer to an administrator's act on the main port (a DELETE whose contract marks its credential `x-admin`)
    /// that a browser sent from a page on another origin or site; nil lets the request through.
    ///
    /// The app and curl send no `Origin` or `Sec-Fetch-*` and pass, as does this server's own page. The refusal is the
    /// harness's answer, not the app API's: it is logged, never journaled, and carries no CORS grant.
    func adminActRefusal(_ request: MockRequest, contract: String?) -> MockResponse? {
        guard !configuration.allowBrowserAdmin, let endpoints = configuration.browserFacing, endpoints.isAdmin(contract: contract),
            let refused = adminAPI.trust.browserRefusal(request)
        else { return nil }
        let message = refused.adminActDescription(method: request.method.rawValue, path: request.path)
        configuration.logger.warning("\(message)")
        return AdminAPI.error(refused.status, message)
    }

    /// Whether a request head is an administrator's act that `adminActRefusal` checks.
    func guardsAdminAct(_ head: HTTPRequestHead) -> Bool {
        guard !configuration.allowBrowserAdmin, let endpoints = configuration.browserFacing, !endpoints.adminContractIDs.isEmpty else { return false }
        let request = MockRequest(method: head.method, uri: head.uri)
        return endpoints.isAdmin(contract: contractID(head.method.rawValue, request.path))
    }
}
