import ContractKit
import Foundation

/// The model's executor behind the mock server: every endpoint of the contract set it is given, answered as the
/// contracts state (routes, rules, state, service), with the records kept in a `RecordStore`.
public struct ModelExecutor: Sendable {
    /// How the backend is set up.
    public struct Configuration: Sendable {
        /// The contracts whose request schema decides validity and whose response schemas check every answer.
        public var contracts: ContractSet
        /// Makes ids, passwords and request ids reproducible.
        public var seed: UInt64?
        /// Records present from the start (and again after `reset`).
        public var fixtures: [RecordFixture]
        /// The whole `Authorization` value that authorises `DELETE` (the service file's `adminTokenOnLoopback` on loopback); nil: every delete answers 401.
        public var adminToken: String?
        /// The known server defects to reproduce instead of the documented answers (`serve --with-known-defects`); empty: none.
        public var knownDefects: [KnownDefect] = []
        /// Validate every answer against its contract and flag violations (on in debug builds).
        public var checkResponses: Bool
        /// The clock for timestamps and the "not in the future" rule.
        public var now: @Sendable () -> Date
        /// The most records created through the API that are kept, oldest evicted first; nil keeps all.
        public var storeLimit: Int?
        /// The most bytes stored records and files may take, oldest created evicted first; nil bounds nothing.
        public var storeMaxBytes: Int?
        /// Where the store keeps its changes across restarts (`serve --data-dir`); nil keeps it in memory.
        public var dataDirectory: StoreDataDirectory?
        /// Answer CORS preflights like Express's `cors()` (every method, requested headers reflected), as the real backend
        /// does (`--allow-browser-admin`); otherwise they grant only what the contracts' browser-facing endpoints need.
        public var allowBrowserAdmin = false

        /// A configuration with the usual defaults.
        public init(
            contracts: ContractSet, seed: UInt64? = nil, fixtures: [RecordFixture] = [], adminToken: String? = nil,
            checkResponses: Bool = ModelExecutor.checksResponsesByDefault,
            now: @escaping @Sendable () -> Date = { Date() }, storeLimit: Int? = nil
        ) {
            self.contracts = contracts
            self.seed = seed
            self.fixtures = fixtures
            self.adminToken = adminToken
            self.checkResponses = checkResponses
            self.now = now
            self.storeLimit = storeLimit
        }
    }

    /// The response header that carries a contract violation found in an answer; tests assert it is absent.
    public static let contractViolationHeader = "x-spotcheck-contract-violation"

    /// A photo of this size or more answers 413, when the upload contract states no `maxFileBytes`.
    /// Room beyond a contract's file limit for multipart framing, so a just-too-large file gets the file rule's 413.
    static let multipartFramingBytes = 1024 * 1024
    /// Bodies of endpoints that never read one; a little room keeps odd clients working.
    static let maxOtherBodyBytes = 64 * 1024

    /// On in debug builds (and so in tests), off in release builds.
    public static var checksResponsesByDefault: Bool {
        #if DEBUG
            return true
        #else
            return false
        #endif
    }

    /// The records of every declared collection, their secrets and files.
    public let store: RecordStore
    let configuration: Configuration
    let responseCheck: ResponseContractCheck?
    /// What preflights grant, read from the contracts; nil answers them like Express's `cors()`.
    let browserFacing: BrowserFacingEndpoints?
    /// `service.json`: headers, request ids, the envelope and the answers no contract owns.
    let service: ServiceFile
    /// Each route's endpoint, by route index.
    let endpoints: [ModelEndpoint]

    /// How multipart bodies are read: the model states what an upload middleware makes of a body, a face brings the parser.
    let multipart: any MultipartScanner

    /// A backend with an empty store plus the configured fixtures, reading multipart bodies with `multipart`.
    public init(configuration: Configuration, multipart: any MultipartScanner) throws(ModelRules.Missing) {
        self.configuration = configuration
        self.multipart = multipart
        self.store = RecordStore(contracts: configuration.contracts, seed: configuration.seed, fixtures: configuration.fixtures,
                                       limit: configuration.storeLimit, maxBytes: configuration.storeMaxBytes, persistence: configuration.dataDirectory)
        self.responseCheck = configuration.checkResponses ? ResponseContractCheck(contracts: configuration.contracts, multipart: multipart, now: configuration.now) : nil
        self.browserFacing = configuration.allowBrowserAdmin ? nil : BrowserFacingEndpoints(contracts: configuration.contracts)
        self.service = configuration.contracts.service
        self.endpoints = ModelEndpoint.all(configuration.contracts, layouts: store.layouts)
        try ModelRules.check(endpoints)
    }

    /// What a request reaches: a preflight, the not-found or undecodable answer, or an endpoint with its parameters.
    enum Target {
        case preflight
        case notFound
        case undecodable
        case endpoint(ModelEndpoint, parameters: [String: String])

        /// The contract that documents the answer, if any.
        var contractID: String? {
            if case .endpoint(let endpoint, _) = self { return endpoint.contractID }
            return nil
        }
    }

    /// The target of a request, from the route table compiled from the contracts (the server's match when it routed
    /// with this very table).
    func target(_ request: ModelRequest) -> Target {
        let routes = configuration.contracts.routes
        switch request.route?.matched(by: routes) ?? routes.resolve(method: request.method, path: request.path) {
        case .preflight: return .preflight
        case .notFound: return .notFound
        case .undecodableParameter: return .undecodable
        case .endpoint(let route, _, let parameters): return .endpoint(endpoints[route], parameters: parameters)
        }
    }

    /// Answers one request like the real backend: the route, its checks in order, and the envelope on any error.
    public func answer(_ request: ModelRequest) async -> ModelAnswer {
        let target = target(request)
        guard case .endpoint(let endpoint, let parameters) = target, endpoint.action == .attachFile,
            request.body.count > Self.offloadThreshold
        else {
            return await durable(target) { answerNow(target, request) }
        }
        // Only a big upload waits: its multipart scan runs on the thread pool, never on an event loop.
        let declaration = declared(endpoint)
        return await durable(target) {
            let requestID = nextRequestID()
            var response: ModelAnswer
            do {
                try authorizeUpload(declaration, parameters: parameters, headers: request.headers)
                let part = declaration.state?.file?.part ?? ""
                response = try acceptPhoto(declaration, parameters: parameters, scan: await offloadedPhotoScan(of: request, part: part))
            } catch {
                response = errorResponse(error, requestID: requestID)
            }
            return finish(response, for: request, target: target, requestID: requestID)
        }
    }

    /// Every answer but a big upload's is ready at once, so the server answers on its event loop without a task hop.
    public func immediateAnswer(_ request: ModelRequest) -> ModelAnswer? {
        let target = target(request)
        if case .endpoint(let endpoint, _) = target, endpoint.action == .attachFile, request.body.count > Self.offloadThreshold { return nil }
        if needsDurableWrite(target) { return nil }
        return answerNow(target, request)
    }

    /// A fresh request id, when the service file has them.
    func nextRequestID() -> String? {
        service.requestID == nil ? nil : store.nextRequestID()
    }

    private func answerNow(_ target: Target, _ request: ModelRequest) -> ModelAnswer {
        // The CORS layer answers preflights before the request id exists: no id is drawn and no header is sent.
        if case .preflight = target { return finish(preflight(request), for: request, target: target, requestID: nil) }
        // The body parser runs before the request id exists (when the service file says so): its failures get neither.
        var parsed: JSONValue?
        if case .endpoint(let endpoint, _) = target, endpoint.bodyKind == .json {
            switch JSONBodyParser.parse(request, parser: service.bodyParser) {
            case .undefined: parsed = nil
            case .value(let value): parsed = value
            case .failure(let trigger, let error):
                if let problem = reproducing(trigger, on: endpoint.contractID) {
                    let requestID = problem.beforeRequestID ? nil : nextRequestID()
                    return finish(errorResponse(problem, requestID: requestID), for: request, target: target, requestID: requestID)
                }
                guard trigger == .jsonRootNotContainer else {
                    let requestID = error.beforeRequestID ? nil : nextRequestID()
                    return finish(errorResponse(error, requestID: requestID), for: request, target: target, requestID: requestID)
                }
                // A JSON string or number root is the strict parser's error in the real server; documented is the handler's answer.
                parsed = JSONBodyParser.rootValue(request, loneSurrogates: service.bodyParser.loneSurrogates)
            }
        }
        let requestID = nextRequestID()
        var response: ModelAnswer
        do {
            response = try answer(target, request, body: parsed, requestID: requestID)
        } catch {
            response = errorResponse(error, requestID: requestID)
        }
        // The request check parses the same whole body; it reads this instead. An empty body is not handed over:
        // the parser reads it as `{}`, which the check must not.
        if request.body.count > 0 { response.parsedRequestBody = parsed }
        return finish(response, for: request, target: target, requestID: requestID)
    }

    /// The listed defect's answer for `trigger` on `contractID` (an entry for that contract, or one for the service layer
    /// in front of it), when this backend reproduces known defects and one is listed.
    func reproducing(_ trigger: KnownDefect.Trigger, on contractID: String) -> ModelError? {
        guard let defect = configuration.knownDefects.defect(contractID: contractID, trigger: trigger) else { return nil }
        let actual = defect.actual
        var error = ModelError(HTTPStatus(statusCode: actual.status), actual.code ?? service.internalError.code,
                                 actual.message ?? service.internalError.message)
        error.beforeRequestID = !actual.requestIdHeader
        return error
    }

    /// The body parser's limit for JSON endpoints, the file limit plus framing for multipart ones, 64 KiB elsewhere.
    public func bodyLimit(for head: ModelRequest) -> Int {
        guard case .endpoint(let endpoint, _) = target(head) else { return Self.maxOtherBodyBytes }
        switch endpoint.bodyKind {
        case .json: return service.bodyParser.limitBytes
        case .multipart: return endpoint.multipartLimit ?? Self.maxOtherBodyBytes
        case .none: return Self.maxOtherBodyBytes
        }
    }

    /// The body parser's 413 for JSON; uploads check credentials first; endpoints that never read a body answer as if it were empty.
    public func answerOversizedBody(_ head: ModelRequest) -> ModelAnswer {
        let target = target(head)
        if case .endpoint(let endpoint, _) = target, endpoint.bodyKind == .json, Self.isJSON(head.headers) {
            var error = ModelError(service.bodyParser.tooLarge)
            error.beforeRequestID = service.bodyParser.beforeRequestID
            let requestID = error.beforeRequestID ? nil : nextRequestID()
            return finish(errorResponse(error, requestID: requestID), for: head, target: target, requestID: requestID)
        }
        if case .preflight = target { return finish(preflight(head), for: head, target: target, requestID: nil) }
        let requestID = nextRequestID()
        var response: ModelAnswer
        do {
            if case .endpoint(let endpoint, let parameters) = target, endpoint.action == .attachFile {
                // The upload checks credentials before it reads the file, so a huge body still gets 401/404/403 first;
                // then the declared file size rule answers.
                let declaration = declared(endpoint)
                try authorizeUpload(declaration, parameters: parameters, headers: head.headers)
                throw try uploadTooLarge(declaration, parameters: parameters)
            }
            // A JSON endpoint never reads a body of another type, and the rest never read one: the size cannot matter.
            var empty = head
            empty.body = [UInt8]()
            response = try answer(target, empty, body: nil, requestID: requestID)
        } catch {
            response = errorResponse(error, requestID: requestID)
        }
        return finish(response, for: head, target: target, requestID: requestID)
    }

    /// Dispatches to what the endpoint's contract says the model does; errors thrown as `ModelError` become the envelope.
    private func answer(_ target: Target, _ request: ModelRequest, body: JSONValue?, requestID: String?) throws -> ModelAnswer {
        switch target {
        case .preflight: return preflight(request)
        case .notFound: throw ModelError(service.notFound)
        case .undecodable: throw ModelError(service.undecodableParameter)
        case .endpoint(let endpoint, let parameters):
            // The stateful actions run on their contract's compiled declarations (x-state, request.auth.x-errors).
            let declaration = declared(endpoint)
            switch endpoint.action {
            case .create: return try create(endpoint, declaration, body: body)
            case .authenticate: return try authenticate(endpoint, declaration, parameters: parameters, body: body)
            case .read: return try read(endpoint, declaration, parameters: parameters)
            case .list: return try list(endpoint, declaration, request: request)
            case .delete: return try delete(endpoint, declaration, parameters: parameters, request: request)
            case .attachFile:
                try authorizeUpload(declaration, parameters: parameters, headers: request.headers)
                return try acceptPhoto(declaration, parameters: parameters, scan: photoScan(of: request, part: declaration.state?.file?.part ?? ""))
            case .readFile: return try image(declaration, parameters: parameters)
            case nil:
                guard let examples = endpoint.examples,
                    let choice = examples.choose(body: body, query: Exchange.queryItems(request.query), pathParameters: parameters)
                else { throw ModelError.internalError }
                return ExampleAnswer(service: service, now: configuration.now()).response(choice, requestID: requestID)
            }
        }
    }


    /// Adds what every answer carries (the service file's headers, the request id), drops HEAD bodies, and checks the
    /// answer against its contract.
    func finish(_ response: ModelAnswer, for request: ModelRequest, target: Target, requestID: String?) -> ModelAnswer {
        var response = response
        let isPreflight: Bool
        if case .preflight = target { isPreflight = true } else { isPreflight = false }
        // No endpoint sets these itself, so adding (not replacing) is safe and skips header scans.
        for header in isPreflight ? service.preflight.headers : service.headers { response.headers.add(name: header.name, value: header.value) }
        if let requestID, let header = service.requestID?.header { response.headers.add(name: header, value: requestID) }
        if let responseCheck, !isPreflight {
            let problems = responseCheck.problems(contractID: target.contractID, response: response, request: request)
            if !problems.isEmpty {
                let summary = problems.joined(separator: "; ")
                response.contractViolations = problems
                // Messages may quote response values; control characters would break the header block.
                let printable = String(summary.prefix(2000).unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
                response.headers.replaceOrAdd(name: Self.contractViolationHeader, value: printable)
            }
        }
        if !isPreflight { conditionalize(&response, for: request, target: target) }
        if request.method == "HEAD" { response.body = [UInt8]() }
        return response
    }

    /// The service file's ETag for an answer with a body (Express's weak one for PetSpot), which turns a 2xx GET or HEAD
    /// with a matching `If-None-Match` into 304 without a body (petspot-api.md, "Quirks").
    ///
    /// The hash runs only for answers with a body; static files have their own validators and are left alone.
    private func conditionalize(_ response: inout ModelAnswer, for request: ModelRequest, target: Target) {
        guard service.etag == "express-weak-etag", response.body.count > 0 else { return }
        if case .endpoint(let endpoint, _) = target, endpoint.isStatic { return }
        let etag = response.etag ?? ExpressETag.weak(for: response.body)
        response.headers.add(name: "ETag", value: etag)
        guard request.method == "GET" || request.method == "HEAD", (200..<300).contains(response.status.code),
            ExpressETag.isFresh(request.headers, etag: etag)
        else { return }
        response.status = .notModified
        response.headers.remove(name: "Content-Type")
        response.body = [UInt8]()
    }

    /// A CORS preflight: the methods and headers the contracts' browser-facing endpoints need (never an administrator's
    /// act, never a header just because it was asked for); with `allowBrowserAdmin`, an open grant like Express's `cors()`.
    private func preflight(_ request: ModelRequest) -> ModelAnswer {
        var headers = HeaderFields()
        let status = HTTPStatus(statusCode: service.preflight.status)
        if let browserFacing {
            headers.add(name: "Access-Control-Allow-Methods", value: browserFacing.methods.joined(separator: ","))
            if !browserFacing.headers.isEmpty { headers.add(name: "Access-Control-Allow-Headers", value: browserFacing.headers.joined(separator: ",")) }
            return ModelAnswer(status: status, headers: headers)
        }
        headers.add(name: "Access-Control-Allow-Methods", value: service.preflight.openMethods)
        if let requested = request.headers.first(name: "Access-Control-Request-Headers") {
            headers.add(name: "Access-Control-Allow-Headers", value: requested)
            headers.add(name: "Vary", value: "Access-Control-Request-Headers")
        }
        return ModelAnswer(status: status, headers: headers)
    }

    /// A JSON answer with `Content-Type: application/json; charset=utf-8`.
    static func json(_ status: HTTPStatus, _ value: JSONValue) -> ModelAnswer {
        ModelAnswer(status: status, headers: jsonHeaders, body: [UInt8](value.serializedBytes()))
    }

    /// The headers of every JSON answer, built once.
    static let jsonHeaders: HeaderFields = ["Content-Type": "application/json; charset=utf-8"]

    /// The service file's envelope for a thrown error; anything that is not a `ModelError` is an uncaught failure.
    ///
    /// An error from before the request id exists carries the service file's unknown id; `finish` leaves the header out too.
    func errorResponse(_ error: any Error, requestID: String?) -> ModelAnswer {
        if let assumed = error as? AssumedAnswer {
            var response = errorResponse(assumed.error, requestID: requestID)
            response.assumptions += assumed.assumptions
            return response
        }
        let e = (error as? ModelError) ?? ModelError.internalError
        let answer = e.resolved(by: service)
        let requestID = e.beforeRequestID ? nil : requestID
        var envelope = JSONObject()
        for member in service.errorEnvelope.members {
            switch member {
            case .requestId:
                if let id = service.requestID.map({ requestID ?? $0.unknownValue }) { envelope["requestId"] = .string(id) }
            case .code: envelope["code"] = .string(answer.code)
            case .message: envelope["message"] = .string(answer.message)
            case .field: if let field = answer.field { envelope["field"] = .string(field) }
            }
        }
        let body: JSONValue = service.errorEnvelope.key.map { .object(JSONObject([($0, .object(envelope))])) } ?? .object(envelope)
        return ModelAnswer(status: HTTPStatus(statusCode: answer.status), headers: ["Content-Type": service.errorEnvelope.contentType],
                            body: [UInt8](body.serializedBytes()))
    }

    /// Whether the request declares a JSON body (`application/json`, any parameters, any case).
    static func isJSON(_ headers: HeaderFields) -> Bool {
        guard let type = headers.first(name: "Content-Type") else { return false }
        return Exchange.mediaType(type) == "application/json"
    }
}
