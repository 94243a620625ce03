import ContractKit
import ContractModel
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A responder that forwards every request to a real server, so the fault layer and journal work in front of it.
public final class FaultProxy: MockResponder {
    /// Headers that describe one hop, not the message; they are never forwarded.
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer",
        "transfer-encoding", "upgrade", "expect", "content-length",
    ]

    /// The server requests are forwarded to.
    public let target: URL
    /// The largest request body forwarded (and the largest answer kept); the 20 MiB photo limit plus framing fits.
    public let maxBodyBytes: Int
    /// Whether requests are streamed through (bodies never held whole) when no fault rule is active; on by default.
    public let streams: Bool
    private let basePath: String
    private let hostHeader: String
    private let client: UpstreamClient

    /// Creates a proxy to a plain-HTTP target such as `http://localhost:3000` (a path in the URL prefixes every request).
    public init(target: URL, timeout: Duration = .seconds(60), maxBodyBytes: Int = 32 * 1024 * 1024,
                eventLoopGroup: (any EventLoopGroup)? = nil, streams: Bool = true) throws(ProxyError) {
        guard let components = URLComponents(url: target, resolvingAgainstBaseURL: false) else {
            throw .unsupportedTarget(target.absoluteString, reason: "it is not a URL")
        }
        guard components.scheme?.lowercased() == "http" else {
            throw .unsupportedTarget(target.absoluteString, reason: "only http:// targets are supported (TLS is not available); put a TLS-terminating tunnel in front if needed")
        }
        guard let host = components.host, !host.isEmpty else {
            throw .unsupportedTarget(target.absoluteString, reason: "it has no host")
        }
        let port = components.port ?? 80
        self.target = target
        self.maxBodyBytes = maxBodyBytes
        self.streams = streams
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        basePath = path
        hostHeader = components.port == nil ? HostLiteral.bracketed(host) : "\(HostLiteral.bracketed(host)):\(port)"
        client = UpstreamClient(host: HostLiteral.unbracketed(host), port: port, group: eventLoopGroup ?? MultiThreadedEventLoopGroup.singleton,
                                timeout: timeout.timeAmount, maxResponseBytes: maxBodyBytes,
                                targetDescription: target.absoluteString)
    }

    /// Forwards the request with its method, path, query, headers (Authorization included) and body; answers 502/504 when the target fails.
    public func respond(to request: MockRequest) async -> MockResponse {
        if let refusal = FaultProxy.refusal(forTarget: request.uri) { return refusal }
        var headers = forwardedHeaders(request.headers)
        if request.body.readableBytes > 0 || request.method == .POST || request.method == .PUT || request.method == .PATCH {
            headers.add(name: "Content-Length", value: "\(request.body.readableBytes)")
        }
        headers.add(name: "Connection", value: "close")
        let head = HTTPRequestHead(version: .http1_1, method: request.method, uri: basePath + request.uri, headers: headers)
        do {
            var response = try await client.send(head: head, body: request.body)
            FaultProxy.removeHopByHop(&response.headers)
            return response
        } catch {
            if case .upstreamTimedOut = error { return FaultProxy.failure(.gatewayTimeout, error) }
            return FaultProxy.failure(.badGateway, error)
        }
    }

    /// The client's headers as the target gets them: hop-by-hop ones (and the framing) dropped, Host rewritten.
    func forwardedHeaders(_ sent: HTTPHeaders) -> HTTPHeaders {
        var headers = HTTPHeaders()
        let named = Set(sent[canonicalForm: "connection"].map { $0.lowercased() })
        for (name, value) in sent {
            let lower = name.lowercased()
            if FaultProxy.hopByHop.contains(lower) || named.contains(lower) { continue }
            headers.add(name: lower == "host" ? "Host" : name, value: lower == "host" ? hostHeader : value)
        }
        if !headers.contains(name: "host") { headers.add(name: "Host", value: hostHeader) }
        return headers
    }

    /// The 400 for a target that cannot be forwarded, on the event loop (no task hop); nil for every other request.
    public func immediateResponse(to request: MockRequest) -> MockResponse? {
        FaultProxy.refusal(forTarget: request.uri)
    }

    /// The request target on the upstream server (the target URL's path prefixes it).
    func upstreamURI(_ uri: String) -> String { basePath + uri }

    /// Drops the headers that describe the hop from the target (and those its Connection header names).
    static func removeHopByHop(_ headers: inout HTTPHeaders) {
        let named = Set(headers[canonicalForm: "connection"].map { $0.lowercased() })
        for name in hopByHop.union(named) { headers.remove(name: name) }
    }

    /// Where the target listens and how long to wait for it, for the streaming path.
    var upstream: UpstreamClient { client }

    /// The largest request body forwarded.
    public func bodyLimit(for head: MockRequest) -> Int { maxBodyBytes }

    /// A 413 naming the proxy's limit (the target never sees the request).
    public func respondToOversizedBody(_ head: MockRequest) async -> MockResponse {
        FaultProxy.json(.payloadTooLarge, "The proxy forwards bodies up to \(maxBodyBytes) bytes.")
    }

    /// The 400 for a request target that cannot be forwarded as received, nil when it can: answered at once, never sent.
    static func refusal(forTarget uri: String) -> MockResponse? {
        guard let character = ForwardableRequest.unsendableCharacter(inTarget: uri) else { return nil }
        return failure(.badRequest, .unforwardableTarget(character: ForwardableRequest.describe(character)))
    }

    static func failure(_ status: HTTPResponseStatus, _ error: ProxyError) -> MockResponse {
        json(status, error.description)
    }

    private static func json(_ status: HTTPResponseStatus, _ message: String) -> MockResponse {
        var body = ByteBuffer()
        body.writeString(JSONValue.object(["error": .object(["code": .string("PROXY_ERROR"), "message": .string(message)])]).serialized())
        return MockResponse(status: status, headers: ["content-type": "application/json"], body: body)
    }

    /// Starts a proxy server to `target` on `host:port` with its own fault layer and journal; the scenario engine starts one per scenario.
    ///
    /// The admin API and dashboard answer on `adminPort` only (0 picks a free one): the main port serves the target's
    /// pages, and a page the target serves must not read the journal (every client's Authorization) or change the rules.
    /// `idleTimeout` is how long a client's connection may sit silent before the proxy closes it.
    public static func start(target: URL, host: String = "127.0.0.1", port: Int = 0, faults: [FaultRule] = [],
                             seed: UInt64? = nil, journalLimit: Int = 1000, contracts: ContractSet? = nil,
                             contractID: (@Sendable (_ method: String, _ path: String) -> String?)? = nil,
                             adminPort: Int = 0, adminToken: String? = nil, quiet: Bool = true,
                             timeout: Duration = .seconds(60), exchangeObserver: (any ExchangeObserver)? = nil,
                             allowedHosts: [String] = [], faultClock: any FaultClock = SystemFaultClock(),
                             allowBrowserAdmin: Bool = false, keepSecrets: Bool = false,
                             idleTimeout: Duration = .seconds(60)) async throws -> RunningFaultProxy {
        let proxy = try FaultProxy(target: target, timeout: timeout)
        let matcher: @Sendable (String, String) -> String? = contractID ?? { method, path in
            contracts?.match(method: method, path: path)?.contract.id
        }
        var configuration = ServerConfiguration(host: host, port: port, adminPort: adminPort, adminToken: adminToken,
                                                idleTimeout: idleTimeout, quiet: quiet)
        configuration.allowedHosts = allowedHosts
        configuration.harSecrets = keepSecrets ? nil : contracts.map { SecretNames(contracts: $0) } ?? SecretNames()
        configuration.faultContracts = contracts?.contracts.map(\.id) ?? []
        configuration.adminOnMainPort = false
        configuration.browserFacing = contracts.map(BrowserFacingEndpoints.init(contracts:))
        configuration.allowBrowserAdmin = allowBrowserAdmin
        let server = MockServer(configuration: configuration, responder: proxy, faults: FaultLayer(rules: faults, seed: seed, clock: faultClock),
                                journal: Journal(limit: journalLimit), admin: nil, contractID: matcher, exchangeObserver: exchangeObserver)
        let address = try await server.start()
        return RunningFaultProxy(server: server, address: address, proxy: proxy)
    }
}

/// A started forwarding proxy: where it listens, its journal and fault layer, and how to stop it.
public final class RunningFaultProxy: Sendable {
    /// The server in front of the proxy.
    public let server: MockServer
    /// Where it listens.
    public let address: ServerAddress
    /// The forwarding responder.
    public let proxy: FaultProxy

    init(server: MockServer, address: ServerAddress, proxy: FaultProxy) {
        self.server = server
        self.address = address
        self.proxy = proxy
    }

    /// `http://host:port` of the proxy, for clients.
    public var baseURL: URL { address.baseURL }
    /// The proxy's port.
    public var port: Int { address.port }
    /// `http://host:adminPort`, where the proxy's admin API and dashboard answer (never on the forwarded port).
    public var adminBaseURL: URL {
        // `start` always binds an admin port; the main URL is only a fallback for a server built some other way.
        address.adminBaseURL ?? address.baseURL
    }
    /// The proxy's journal.
    public var journal: Journal { server.journal }
    /// The proxy's live fault rules.
    public var faults: FaultLayer { server.faults }

    /// Stops the proxy and closes its connections.
    public func shutdown() async throws {
        try await server.shutdown()
    }
}
