import ContractKit
import ContractModel
import Foundation
import NIOCore
import NIOHTTP1

/// Wraps a responder and bends its requests and answers by the chosen drifts; the wrapped backend stays faithful.
public struct DriftResponder: MockResponder {
    /// The faithful responder underneath.
    public let base: any MockResponder
    /// The drifts applied.
    public let drifts: Set<ContractDrift>

    /// The error code the contracts answer an unknown body key with (a schema's `x-errors.additionalProperties`).
    let unknownKeyCode: String?
    /// The contracts' answer for an uncaught failure (`service.json`'s error handler).
    let internalError: ServiceAnswer
    /// The contracts the drifted endpoints are found in.
    let contracts: ContractSet

    /// A responder that drifts from `base` by `drifts`; `contracts` says what the drifted answers look like.
    public init(wrapping base: any MockResponder, drifts: Set<ContractDrift>, contracts: ContractSet) {
        self.base = base
        self.drifts = drifts
        self.internalError = contracts.service.internalError
        self.contracts = contracts
        self.unknownKeyCode = contracts.schemas.values.lazy.compactMap { $0["x-errors"]?["additionalProperties"]?["code"]?.stringValue }.first
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
        let route = route(of: request)
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
        case .create(let contractID):
            // The create's declared secret answered as `password` (petspot-api.md's later API renamed it so).
            if drifts.contains(.renamedManagementPassword), response.status == .created,
               let secret = contracts.state.declaration(for: contractID)?.secret.first, secret != "password"
            {
                response = Self.rewriteJSON(response) { body in
                    guard var object = body.objectValue, let password = object[secret] else { return body }
                    object[secret] = nil
                    object["password"] = password
                    return .object(object)
                }
            }
            if drifts.contains(.serverErrorOnUnknownFields), response.status == .badRequest,
                let code = Self.errorCode(of: response), code == unknownKeyCode
            {
                response.status = HTTPResponseStatus(statusCode: internalError.status)
                response = Self.rewriteJSON(response) { body in
                    guard var error = body["error"]?.objectValue else { return body }
                    error["code"] = .string(internalError.code)
                    error["message"] = .string(internalError.message)
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

    enum Route: Equatable { case create(String), upload, other }

    /// Which drifted endpoint `request` reaches, by the action its contract declares (`x-state`).
    func route(of request: MockRequest) -> Route {
        guard request.method == .POST, let match = contracts.match(method: "POST", path: request.path) else { return .other }
        switch match.contract.source["x-state"]?["action"]?.stringValue {
        case "create": return .create(match.contract.id)
        case "attach-file": return .upload
        default: return .other
        }
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
