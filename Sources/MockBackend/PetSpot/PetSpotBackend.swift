import ContractKit
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// The stateful PetSpot backend behind the mock server: every endpoint of the real API, answered the way the real backend does.
public struct PetSpotBackend: MockResponder {
    /// How the backend is set up.
    public struct Configuration: Sendable {
        /// The contracts whose request schema decides validity and whose response schemas check every answer.
        public var contracts: ContractSet
        /// Makes ids, passwords and request ids reproducible.
        public var seed: UInt64?
        /// Announcements present from the start (and again after `reset`).
        public var fixtures: [PetSpotFixture]
        /// The whole `Authorization` value that authorises `DELETE` (the real backend's is `tajnehasloadmina`); nil: every delete answers 401.
        public var adminToken: String?
        /// The known server defects to reproduce instead of the documented answers (`serve --with-known-defects`); empty: none.
        public var knownDefects: [KnownDefect] = []
        /// Validate every answer against its contract and flag violations (on in debug builds).
        public var checkResponses: Bool
        /// Where contract violations are reported.
        public var logger: Logger
        /// The clock for timestamps and the "not in the future" rule.
        public var now: @Sendable () -> Date
        /// The most announcements created through the API that are kept, oldest evicted first; nil keeps all.
        public var storeLimit: Int?
        /// The most bytes stored announcements and photos may take, oldest created evicted first; nil bounds nothing.
        public var storeMaxBytes: Int?
        /// Where the store keeps its changes across restarts (`serve --data-dir`); nil keeps it in memory.
        public var dataDirectory: StoreDataDirectory?
        /// Answer CORS preflights like Express's `cors()` (every method, requested headers reflected), as the real backend
        /// does (`--allow-browser-admin`); otherwise they grant only what the contracts' browser-facing endpoints need.
        public var allowBrowserAdmin = false

        /// A configuration with the usual defaults.
        public init(
            contracts: ContractSet, seed: UInt64? = nil, fixtures: [PetSpotFixture] = [], adminToken: String? = nil,
            checkResponses: Bool = PetSpotBackend.checksResponsesByDefault, logger: Logger = Logger(label: "spotcheck.petspot"),
            now: @escaping @Sendable () -> Date = { Date() }, storeLimit: Int? = nil
        ) {
            self.contracts = contracts
            self.seed = seed
            self.fixtures = fixtures
            self.adminToken = adminToken
            self.checkResponses = checkResponses
            self.logger = logger
            self.now = now
            self.storeLimit = storeLimit
        }
    }

    /// The response header that carries a contract violation found in an answer; tests assert it is absent.
    public static let contractViolationHeader = "x-spotcheck-contract-violation"

    /// JSON create bodies over 100 KB answer 413, like the real body parser's `100kb` limit.
    public static let maxJSONBodyBytes = 100 * 1024
    /// Room beyond the declared file limit for multipart framing, so a just-too-large file gets the file rule's 413.
    static let multipartFramingBytes = 1024 * 1024
    /// Bodies of other routes are never used; a little room keeps odd clients working.
    static let maxOtherBodyBytes = 64 * 1024

    /// On in debug builds (and so in tests), off in release builds.
    public static var checksResponsesByDefault: Bool {
        #if DEBUG
            return true
        #else
            return false
        #endif
    }

    /// The announcements, passwords and photos.
    public let store: AnnouncementStore
    let configuration: Configuration
    let validator: CreateAnnouncementValidator
    let responseCheck: ResponseContractCheck?
    /// What preflights grant, read from the contracts; nil answers them like Express's `cors()`.
    let browserFacing: BrowserFacingEndpoints?

    /// A backend with an empty store plus the configured fixtures.
    public init(configuration: Configuration) throws(CreateAnnouncementValidator.MissingSchema) {
        self.configuration = configuration
        self.validator = try CreateAnnouncementValidator(contracts: configuration.contracts)
        self.store = AnnouncementStore(seed: configuration.seed, fixtures: configuration.fixtures, limit: configuration.storeLimit,
                                       maxBytes: configuration.storeMaxBytes, persistence: configuration.dataDirectory)
        self.responseCheck = configuration.checkResponses ? ResponseContractCheck(contracts: configuration.contracts) : nil
        self.browserFacing = configuration.allowBrowserAdmin ? nil : BrowserFacingEndpoints(contracts: configuration.contracts)
    }

    /// Answers one request like the real backend: the route, its checks in order, and the envelope on any error.
    public func respond(to request: MockRequest) async -> MockResponse {
        let route = PetSpotRoute(method: request.method, path: request.path)
        guard case .uploadPhoto(let id) = route, request.body.readableBytes > Self.offloadThreshold else {
            return await durable(route: route) { answerNow(route, request) }
        }
        // Only a big upload waits: its multipart scan runs on the thread pool, never on an event loop.
        return await durable(route: route) {
            let requestID = store.nextRequestID()
            var response: MockResponse
            do {
                // STATE HOOK: the upload runs on its declarations (x-state attach-file, request.auth.x-errors).
                let endpoint = uploadEndpoint
                try authorizeUpload(endpoint, parameters: endpoint.parameters(key: id), headers: request.headers)
                response = try acceptPhoto(endpoint, parameters: endpoint.parameters(key: id), scan: await Self.offloadedPhotoScan(of: request, part: endpoint.state?.file?.part ?? ""))
            } catch {
                response = errorResponse(error, requestID: requestID)
            }
            return finish(response, for: request, route: route, requestID: requestID)
        }
    }

    /// Every answer but a big upload's is ready at once, so the server answers on its event loop without a task hop.
    public func immediateResponse(to request: MockRequest) -> MockResponse? {
        let route = PetSpotRoute(method: request.method, path: request.path)
        if case .uploadPhoto = route, request.body.readableBytes > Self.offloadThreshold { return nil }
        if needsDurableWrite(route) { return nil }
        return answerNow(route, request)
    }

    private func answerNow(_ route: PetSpotRoute, _ request: MockRequest) -> MockResponse {
        // The CORS layer answers preflights before the request id exists: no id is drawn and no header is sent.
        if route == .preflight { return finish(preflight(request), for: request, route: route, requestID: nil) }
        // The body parser runs before the request id exists, so its failures get neither an id nor the header.
        var parsed: JSONValue?
        if route == .createAnnouncement {
            switch JSONBodyParser.parse(request) {
            case .undefined: parsed = nil
            case .value(let value): parsed = value
            case .failure(let trigger, let error):
                // A JSON string or number root is the parser's error in the real server; the contract's answer is zod's, after the id.
                let problem = reproducing(trigger) ?? (trigger == .jsonRootNotContainer ? error : error.fromBodyParser())
                let requestID = problem.beforeRequestID ? nil : store.nextRequestID()
                return finish(errorResponse(problem, requestID: requestID ?? "unknown"), for: request, route: route, requestID: requestID)
            }
        }
        let requestID = store.nextRequestID()
        var response: MockResponse
        do {
            response = route == .createAnnouncement ? try create(body: parsed) : try answer(route, request)
        } catch {
            response = errorResponse(error, requestID: requestID)
        }
        // The request check parses the same whole body; it reads this instead. An empty body is not handed over:
        // the parser reads it as `{}`, which the check must not.
        if request.body.readableBytes > 0 { response.parsedRequestBody = parsed }
        return finish(response, for: request, route: route, requestID: requestID)
    }

    /// The listed defect's answer for `trigger`, when this backend reproduces known defects and one is listed.
    func reproducing(_ trigger: KnownDefect.Trigger) -> PetSpotError? {
        guard let defect = configuration.knownDefects.first(where: { $0.trigger == trigger }) else { return nil }
        let actual = defect.actual
        var error = PetSpotError(HTTPResponseStatus(statusCode: actual.status), actual.code ?? "INTERNAL_SERVER_ERROR", actual.message ?? "Internal server error")
        error.beforeRequestID = !actual.requestIdHeader
        return error
    }

    /// 100 KB for create, the declared file limit plus framing for uploads (so a file at the limit still reaches the
    /// declared 413), 64 KiB elsewhere.
    public func bodyLimit(for head: MockRequest) -> Int {
        switch PetSpotRoute(method: head.method, path: head.path) {
        case .createAnnouncement: return Self.maxJSONBodyBytes
        // STATE HOOK: the upload's limit is its contract's request.maxFileBytes (x-state/file).
        case .uploadPhoto: return (uploadEndpoint.state?.file?.maxBytes).map { $0 + Self.multipartFramingBytes } ?? Self.maxOtherBodyBytes
        // STATE HOOK: a record collection's endpoint reads bodies up to its contract's maxBodyBytes.
        case .unknown: return collectionEndpoint(for: head)?.maxBodyBytes ?? Self.maxOtherBodyBytes
        default: return Self.maxOtherBodyBytes
        }
    }

    /// 413 for JSON creates; uploads check credentials first; routes that never read a body answer as if it were empty.
    public func respondToOversizedBody(_ head: MockRequest) async -> MockResponse {
        let route = PetSpotRoute(method: head.method, path: head.path)
        // STATE HOOK: a record collection's JSON endpoint is behind the same body parser as the create.
        if (route == .createAnnouncement || (route == .unknown && collectionEndpoint(for: head) != nil)) && Self.isJSON(head.headers) {
            // The body parser's own 413: before the request id exists.
            return finish(errorResponse(PetSpotError.payloadTooLarge().fromBodyParser(), requestID: "unknown"), for: head, route: route, requestID: nil)
        }
        if route == .preflight { return finish(preflight(head), for: head, route: route, requestID: nil) }
        let requestID = store.nextRequestID()
        var response: MockResponse
        do {
            switch route {
            case .createAnnouncement:
                // The real backend never reads a non-JSON body, so the size does not matter: the body is undefined.
                response = try create(body: nil)
            case .uploadPhoto(let id):
                // The upload checks credentials before it reads the file, so a huge body still gets 401/404/403 first.
                // STATE HOOK: the declared auth checks, then the declared file size answer.
                let endpoint = uploadEndpoint
                try authorizeUpload(endpoint, parameters: endpoint.parameters(key: id), headers: head.headers)
                throw try uploadTooLarge(endpoint, parameters: endpoint.parameters(key: id))
            default:
                // The real backend never reads bodies on these routes, so their size cannot matter either.
                var empty = head
                empty.body = ByteBuffer()
                response = try answer(route, empty)
            }
        } catch {
            response = errorResponse(error, requestID: requestID)
        }
        return finish(response, for: head, route: route, requestID: requestID)
    }

    /// Dispatches to the endpoint; errors thrown as `PetSpotError` become the envelope.
    private func answer(_ route: PetSpotRoute, _ request: MockRequest) throws -> MockResponse {
        switch route {
        case .preflight: return preflight(request)
        case .health: return Self.json(.ok, ["status": "ok", "timestamp": .string(Timestamp.string(from: configuration.now()))])
        case .createAnnouncement: return try create(body: JSONBodyParser.parse(request).value)
        case .getAnnouncement(let id):
            // STATE HOOK: the read answers its declared notFound.
            let endpoint = declared(route.contractID)
            return try read(endpoint, parameters: endpoint.parameters(key: id))
        case .listAnnouncements: return try list(request)
        // STATE HOOK (until the router's table dispatches on x-state): the stateful routes run on their declarations.
        case .deleteAnnouncement(let id):
            let endpoint = declared(route.contractID(path: request.path))
            return try delete(endpoint, parameters: endpoint.parameters(key: id), request: request)
        case .uploadPhoto(let id):
            let endpoint = uploadEndpoint
            try authorizeUpload(endpoint, parameters: endpoint.parameters(key: id), headers: request.headers)
            return try acceptPhoto(endpoint, parameters: endpoint.parameters(key: id), scan: Self.photoScan(of: request, part: endpoint.state?.file?.part ?? ""))
        case .image(let file):
            let endpoint = declared(route.contractID)
            return try image(endpoint, parameters: endpoint.parameters(key: file))
        case .unknown:
            // STATE HOOK: a contract whose x-state works on a record collection (fb9f56a's users) answers here.
            if let found = collectionEndpoint(for: request) {
                return try answerCollection(found.endpoint, parameters: found.parameters, request: request)
            }
            throw PetSpotError.notFound()
        case .undecodableParameter: throw PetSpotError(.internalServerError, "INTERNAL_SERVER_ERROR", "Internal server error")
        }
    }

    /// Adds what every answer carries (request id, CORS), drops HEAD bodies, and checks the answer against its contract.
    private func finish(_ response: MockResponse, for request: MockRequest, route: PetSpotRoute, requestID: String?) -> MockResponse {
        var response = response
        // No endpoint sets these itself, so adding (not replacing) is safe and skips two header scans.
        if let requestID { response.headers.add(name: "request-id", value: requestID) }
        response.headers.add(name: "Access-Control-Allow-Origin", value: "*")
        if let responseCheck, route != .preflight {
            // STATE HOOK: a record collection's answers are checked against their contract too.
            let contractID = route.contractID(path: request.path) ?? (route == .unknown ? collectionEndpoint(for: request)?.endpoint.contractID : nil)
            let problems = responseCheck.problems(contractID: contractID, response: response, request: request)
            if !problems.isEmpty {
                let summary = problems.joined(separator: "; ")
                configuration.logger.error(
                    "response breaks its contract",
                    metadata: ["method": "\(request.method.rawValue)", "path": "\(request.path)", "status": "\(response.status.code)", "problems": "\(summary)"])
                // Messages may quote response values; control characters would break the header block.
                let printable = String(summary.prefix(2000).unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
                response.headers.replaceOrAdd(name: Self.contractViolationHeader, value: printable)
            }
        }
        conditionalize(&response, for: request, route: route)
        if request.method == .HEAD { response.body = ByteBuffer() }
        return response
    }

    /// What Express adds to every answer it sends: `X-Powered-By`, and for a body sent by `res.send` a weak ETag, which
    /// turns a 2xx GET or HEAD with a matching `If-None-Match` into 304 without a body (petspot-api.md, "Quirks").
    ///
    /// The hash runs only for answers with a body; the static image server has its own validators and is left alone.
    private func conditionalize(_ response: inout MockResponse, for request: MockRequest, route: PetSpotRoute) {
        response.headers.add(name: "X-Powered-By", value: "Express")
        guard response.body.readableBytes > 0, route.sendsThroughExpress else { return }
        let etag = response.etag ?? ExpressETag.weak(for: response.body)
        response.headers.add(name: "ETag", value: etag)
        guard request.method == .GET || request.method == .HEAD, (200..<300).contains(response.status.code),
            ExpressETag.isFresh(request.headers, etag: etag)
        else { return }
        response.status = .notModified
        response.headers.remove(name: "Content-Type")
        response.body = ByteBuffer()
    }

    /// A CORS preflight: 204 with the methods and headers the contracts' browser-facing endpoints need (never an
    /// administrator's act, never a header just because it was asked for); with `allowBrowserAdmin`, Express's `cors()`.
    private func preflight(_ request: MockRequest) -> MockResponse {
        var headers = HTTPHeaders()
        if let browserFacing {
            headers.add(name: "Access-Control-Allow-Methods", value: browserFacing.methods.joined(separator: ","))
            if !browserFacing.headers.isEmpty { headers.add(name: "Access-Control-Allow-Headers", value: browserFacing.headers.joined(separator: ",")) }
            return MockResponse(status: .noContent, headers: headers)
        }
        headers.add(name: "Access-Control-Allow-Methods", value: "GET,HEAD,PUT,PATCH,POST,DELETE")
        if let requested = request.headers.first(name: "Access-Control-Request-Headers") {
            headers.add(name: "Access-Control-Allow-Headers", value: requested)
            headers.add(name: "Vary", value: "Access-Control-Request-Headers")
        }
        return MockResponse(status: .noContent, headers: headers)
    }

    /// A JSON answer with `Content-Type: application/json; charset=utf-8`.
    static func json(_ status: HTTPResponseStatus, _ value: JSONValue) -> MockResponse {
        MockResponse(status: status, headers: jsonHeaders, body: ByteBuffer(bytes: value.serializedBytes()))
    }

    /// The headers of every JSON answer, built once.
    static let jsonHeaders: HTTPHeaders = ["Content-Type": "application/json; charset=utf-8"]

    /// The envelope for a thrown error; anything that is not a `PetSpotError` is an uncaught failure, 500.
    ///
    /// A body-parser error carries `requestId` "unknown"; `finish` then leaves the `request-id` header out too.
    func errorResponse(_ error: any Error, requestID: String) -> MockResponse {
        let e = (error as? PetSpotError) ?? PetSpotError(.internalServerError, "INTERNAL_SERVER_ERROR", "Internal server error")
        let requestID = e.beforeRequestID ? "unknown" : requestID
        var body = JSONObject([("requestId", .string(requestID)), ("code", .string(e.code)), ("message", .string(e.message))])
        if let field = e.field { body["field"] = .string(field) }
        return Self.json(e.status, ["error": .object(body)])
    }

    /// Whether the request declares a JSON body (`application/json`, any parameters, any case).
    static func isJSON(_ headers: HTTPHeaders) -> Bool {
        guard let type = headers.first(name: "Content-Type") else { return false }
        return Exchange.mediaType(type) == "application/json"
    }
}
