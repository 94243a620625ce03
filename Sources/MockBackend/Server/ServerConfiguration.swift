import ContractKit
import ContractModel
import Logging
import NIOCore
import NIOPosix

/// How a `MockServer` listens and behaves at the HTTP level.
public struct ServerConfiguration: Sendable {
    /// The address to bind; loopback unless told otherwise.
    public var host: String
    /// The port to bind; 0 picks a free one.
    public var port: Int
    /// A second port serving only the admin API, which stays up while `refuse` is active; 0 picks a free one.
    public var adminPort: Int?
    /// The token admin requests must carry in `X-SpotCheck-Admin-Token`; required when `host` is not loopback.
    public var adminToken: String?
    /// How long a connection may send nothing (while no answer is pending) before it is closed.
    public var idleTimeout: Duration
    /// The fewest request-body bytes each `idleTimeout` window must bring once a body has begun; a slower body is cut.
    public var minimumBodyBytesPerWindow: Int = 1024
    /// How long the server keeps discarding an oversized body after answering before it closes the connection.
    public var oversizedBodyLinger: Duration
    /// The logger for the per-request lines and server events.
    public var logger: Logger
    /// Whether to skip the per-request log line.
    public var quiet: Bool
    /// The event loops to run on; the shared singleton group when nil.
    public var eventLoopGroup: (any EventLoopGroup)?
    /// Host names, besides loopback, address literals and `host`, that the admin API and dashboard answer (`--allow-host`).
    public var allowedHosts: [String] = []
    /// Whether the main port answers the admin API and dashboard too (`serve`); the proxy keeps them on the admin port only,
    /// since its main port serves the target's pages, which must not reach the journal or the rules.
    public var adminOnMainPort = true
    /// How many bytes of each request and response body the journal keeps; 0 keeps none.
    public var journalBodyLimit: Int = CapturedBody.defaultLimit
    /// The app API's endpoints as the contracts divide them; a browser's cross-site or same-site request to one of its
    /// administrator acts (deleting) is refused on the main port. Nil guards nothing (a server without contracts).
    public var browserFacing: BrowserFacingEndpoints?
    /// Lets browser pages on other sites perform administrator acts, as the real backend does (`--allow-browser-admin`).
    public var allowBrowserAdmin = false
    /// Send each answer's `MockResponse.assumptions` as `x-spotcheck-assumption` lines (`AssumptionHeader`): on for
    /// verify's embedded model, which tells stated answers from assumed ones by them; off by default, so a mock's
    /// answers carry only the API's headers.
    public var sendsAssumptions = false
    /// What `journal.har` redacts (the admin token and the HTTP credential headers by default); nil keeps every
    /// secret (`--keep-secrets`), which the HAR's `creator.comment` then says.
    public var harSecrets: SecretNames? = SecretNames()
    /// The contract ids the dashboard's fault catalogue offers as selectors: the loaded contract set's, in its order.
    public var faultContracts: [String] = []

    /// A configuration with safe defaults: 127.0.0.1, an ephemeral port, no admin port, 60 s idle timeout.
    public init(host: String = "127.0.0.1", port: Int = 0, adminPort: Int? = nil, adminToken: String? = nil,
                idleTimeout: Duration = .seconds(60), oversizedBodyLinger: Duration = .seconds(2),
                logger: Logger = Logger(label: "spotcheck.server"), quiet: Bool = false,
                eventLoopGroup: (any EventLoopGroup)? = nil) {
        self.host = host
        self.port = port
        self.adminPort = adminPort
        self.adminToken = adminToken
        self.idleTimeout = idleTimeout
        self.oversizedBodyLinger = oversizedBodyLinger
        self.logger = logger
        self.quiet = quiet
        self.eventLoopGroup = eventLoopGroup
    }

    /// `host` as the socket layer takes it: an IPv6 literal without the URL brackets (`[::1]` binds `::1`).
    public var bindHost: String {
        HostLiteral.unbracketed(host)
    }

    /// Whether every address `host` resolves to is loopback, where the admin API needs no token; false when it does not resolve.
    public var isLoopback: Bool {
        (try? LoopbackResolver.isLoopback(host: host)) ?? false
    }

    /// Whether `name` can be an entry of `allowedHosts`: a host name, optionally starting with `*.`, without a port.
    public static func isValidAllowedHost(_ name: String) -> Bool {
        HostAllowList.isValidPattern(name)
    }

    /// Whether every address `host` resolves to is loopback; throws when it resolves to none (say so before binding).
    public func resolveLoopback() throws(HostResolutionError) -> Bool {
        try LoopbackResolver.isLoopback(host: host)
    }
}

extension Duration {
    /// The duration as a NIO time amount.
    var timeAmount: TimeAmount {
        let (seconds, attoseconds) = components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
