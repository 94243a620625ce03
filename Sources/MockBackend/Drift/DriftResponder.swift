import ContractKit
import Foundation
import NIOCore
import NIOHTTP1

/// Wraps a responder and bends its requests and answers by the chosen drifts; the wrapped backend stays faithful.
public struct DriftResponder: MockResponder {
    /// The faithful responder underneath.
    public let base: any MockResponder
    /// The drifts applied.
    public let drifts: Set<ContractDrift>

    /// A responder that drifts from `base` by `drifts`.
    public init(wrapping base: any MockResponder, drifts: Set<ContractDrift>) {
        self.base = base
        self.drifts = drifts
    }

    public func bodyLimit(for head: MockRequest) -> Int { base.bodyLimit(for: head) }

    public func respondToOversizedBody(_ head: MockRequest) async -> MockResponse {
        finish(await base.respondToOversizedBody(head))
    }

    public func respond(to request: MockRequest) async -> MockResponse {
        let (route, drifted) = drift(request)
        return bend(await base.respond(to: drifted), route: route)
    }

    public func immediateResponse(to request: MockRequest) -> MockResponse? {
        let (route, drifted) = drift(request)
        return base.immediateResponse(to: drifted).map { bend($0, route: route) }
    }

    /// The request as the drifted server reads it.
    private func drift(_ request: MockRequest) -> (Route, MockRequest) {
        let route = Self.route(of: request)
        var request = request
        if drifts.contains(.bearerInsteadOfBasic), route == .upload {
            request.headers = Self.bearerToBasic(request.headers)
        }
        return (route, request)
    }

    /// The faithful answer as the drifted server sends it.
    private func bend(_ response: MockResponse, route: Route) -> MockResponse {
        var response = response
        switch route {
        case .create:
            if drifts.contains(.renamedManagementPassword), response.status == .created {
                response = Self.rewriteJSON(response) { body in
                    guard var object = body.objectValue, let password = object["managementPassword"] else { return body }
                    object["managementPassword"] = nil
                    object["password"] = password
                    return .object(object)
                }
            }
            if drifts.contains(.serverErrorOnUnknownFields), response.status == .badRequest,
                Self.errorCode(of: response) == "INVALID_FIELD"
            {
                response.status = .internalServerError
                response = Self.rewriteJSON(response) { body in
                    guard var error = body["error"]?.objectValue else { return body }
                    error["code"] = "INTERNAL_SERVER_ERROR"
                    error["message"] = "Internal server error"
                    error["field"] = nil
                    return .object(["error": .object(error)])
                }
            }
        case .upload:
            if drifts.contains(.photoUploadAnswers200), response.status == .created { response.status = .ok }
        case .other:
            break
        }
        return finish(response)
    }

    private func finish(_ response: MockResponse) -> MockResponse {
        var response = response
        if drifts.contains(.missingRequestID) { response.headers.remove(name: "request-id") }
        return response
    }

    enum Route { case create, upload, other }

    static func route(of request: MockRequest) -> Route {
        guard request.method == .POST else { return .other }
        let segments = request.path.split(separator: "/")
        if segments == ["api", "v1", "announcements"] { return .create }
        if segments.count == 5, segments.starts(with: ["api", "v1", "announcements"]), segments[4] == "photos" { return .upload }
        return .other
    }

    /// Basic is refused (dropped, so the backend answers its 401); Bearer carries what Basic used to.
    static func bearerToBasic(_ headers: HTTPHeaders) -> HTTPHeaders {
        var headers = headers
        let value = headers.first(name: "authorization") ?? ""
        headers.remove(name: "authorization")
        if value.lowercased().hasPrefix("bearer ") {
            headers.add(name: "Authorization", value: "Basic " + value.dropFirst("bearer ".count))
        }
        return headers
    }

    static func errorCode(of response: MockResponse) -> String? {
        (try? JSONValue(parsing: Data(response.body.readableBytesView)))?["error"]?["code"]?.stringValue
    }

    static func rewriteJSON(_ response: MockResponse, _ transform: (JSONValue) -> JSONValue) -> MockResponse {
        guard let body = try? JSONValue(parsing: Data(response.body.readableBytesView)) else { return response }
        var response = response
        let bytes = transform(body).data()
        response.body = ByteBuffer(bytes: bytes)
        response.headers.replaceOrAdd(name: "content-length", value: String(bytes.count))
        return response
    }
}
