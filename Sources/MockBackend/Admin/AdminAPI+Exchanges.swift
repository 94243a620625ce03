import ContractKit
import ContractModel
import Foundation
import NIOCore
import NIOHTTP1

extension AdminAPI {
    /// The validation routes: `GET violations`, `GET coverage`, `POST shutdown`; nil for any other route.
    func exchangeRoute(_ route: String, _ request: MockRequest) -> MockResponse? {
        switch (route, request.method) {
        case ("violations", .GET):
            guard let monitor = observer as? ExchangeMonitor else { return AdminAPI.error(.notFound, "This server does not validate exchanges.") }
            return AdminAPI.json(.ok, monitor.violationsJSON())
        case ("coverage", .GET):
            guard let monitor = observer as? ExchangeMonitor else { return AdminAPI.error(.notFound, "This server does not count coverage.") }
            return AdminAPI.json(.ok, monitor.coverage.json())
        case ("shutdown", .POST):
            guard let shutdownRequest else { return AdminAPI.error(.notFound, "This server cannot be shut down over the admin API.") }
            shutdownRequest.request()
            return MockResponse(status: .accepted)
        case ("violations", _), ("coverage", _), ("shutdown", _):
            let allowed = route == "shutdown" ? "POST" : "GET"
            var response = AdminAPI.error(.methodNotAllowed, "\(request.method.rawValue) is not allowed on \(request.path); use \(allowed).")
            response.headers.add(name: "allow", value: allowed)
            return response
        default:
            return nil
        }
    }
}
