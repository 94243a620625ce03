import ContractKit
import ContractModel
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

/// The SwiftNIO HTTP/1.1 server in front of a responder: fault layer, journal, admin API and per-request logging.
public final class MockServer: Sendable {
    private enum Phase {
        case created, running, stopped
    }

    private struct State {
        var phase = Phase.created
        var listener: (any Channel)?
        var adminListener: (any Channel)?
        var port = 0
        var adminPort: Int?
        var connections: [ObjectIdentifier: any Channel] = [:]
        var offline = false
        /// The socket holding the main port while offline (see `PortPlaceholder`).
        var placeholder: Int32?
        /// Bumped on every refuse or rule change, so a stale timer does not bring the server back early.
        var offlineEpoch = 0
        /// Bumped whenever the last connection closes, so only the newest idle period trims memory.
        var idleEpoch = 0

        /// The open connections among `ids`, except `sparing`.
        func channels(in ids: Set<ObjectIdentifier>, except sparing: ObjectIdentifier?) -> [any Channel] {
            connections.filter { ids.contains($0.key) && $0.key != sparing }.map(\.value)
        }
    }

    /// How the server listens.
    public let configuration: ServerConfiguration
    let responder: any MockResponder
    /// The live fault rules.
    public let faults: FaultLayer
    /// The request journal.
    public let journal: Journal
    /// Names the contract a request matches (nil when none), for fault selectors and the journal.
    public let contractID: @Sendable (_ method: String, _ path: String) -> String?
    /// The route table `contractID` reads, when the server routes by contracts: each request is then matched once, as
    /// its head arrives, and every later layer reads that match (`MockRequest.route`).
    public let routes: RouteTable?
    let adminAPI: AdminAPI
    /// Validates, counts and records each exchange before and after the journal stores it; nil checks nothing.
    public let exchangeObserver: (any ExchangeObserver)?
    /// Asked for by `POST /__spotcheck/shutdown`; the command running the server waits for it.
    public let shutdownRequest = ShutdownRequest()
    private let group: any EventLoopGroup
    private let state = Locked(State())
    /// The bound ports, shared with the admin API's trust checks (created before `self` exists, so kept apart from `state`).
    private let listeningPorts = Locked<(main: Int?, admin: Int?)>((nil, nil))

    /// Creates a server; `contractID` names the contract a request matches, for fault selectors and the journal;
    /// `routes`, when given, must be the table `contractID` answers from.
    public init(configuration: ServerConfiguration, responder: any MockResponder, faults: FaultLayer, journal: Journal,
                admin: (any AdminHooks)?, contractID: @escaping @Sendable (_ method: String, _ path: String) -> String?,
                routes: RouteTable? = nil, exchangeObserver: (any ExchangeObserver)? = nil) {
        self.configuration = configuration
        self.routes = routes
        self.exchangeObserver = exchangeObserver
        self.responder = responder
        self.faults = faults
        self.journal = journal
        self.contractID = contractID
        var adminAPI = AdminAPI(journal: journal, faults: faults, hooks: admin, token: configuration.adminToken,
                                loopback: configuration.isLoopback, observer: exchangeObserver, shutdownRequest: shutdownRequest)
        let ports = listeningPorts
        adminAPI.trust = AdminRequestTrust(hosts: HostAllowList(boundHost: configuration.host, allowedNames: configuration.allowedHosts),
                                           ports: Self.trustedPorts(ports, adminOnMainPort: configuration.adminOnMainPort))
        adminAPI.mainPort = { ports.withLock { $0.main } }
        adminAPI.harSecrets = configuration.harSecrets
        adminAPI.faultContracts = configuration.faultContracts
        self.adminAPI = adminAPI
        self.group = configuration.eventLoopGroup ?? MultiThreadedEventLoopGroup.singleton
    }

    /// Matches `request` with `routes` once, for every layer after the head (nothing without `routes`).
    func route(_ request: inout MockRequest) {
        guard let routes else { return }
        request.route = RequestRoute(table: routes.identity, match: routes.resolve(method: request.method.rawValue, path: request.path))
    }

    /// The contract `request` matches, for fault selectors and the journal: its route when it carries one of `routes`.
    func routedContractID(_ request: MockRequest) -> String? {
        if let routes, let match = request.route?.matched(by: routes) { return match.contractID }
        return self.contractID(request.method.rawValue, request.path)
    }

    /// The ports whose pages the admin API trusts as its own: both, unless the main port serves another server's pages.
    private static func trustedPorts(_ ports: Locked<(main: Int?, admin: Int?)>, adminOnMainPort: Bool) -> @Sendable () -> [Int] {
        { ports.withLock { [adminOnMainPort ? $0.main : nil, $0.admin].compactMap { $0 } } }
    }

    /// Binds the port (and admin port) and starts answering; returns where it listens.
    public func start() async throws -> ServerAddress {
        try state.withLock { s in
            guard s.phase == .created else { throw ServerError.alreadyStarted }
            s.phase = .running
        }
        do {
            let listener = try await bind(port: configuration.port, adminOnly: false)
            let port = listener.localAddress?.port ?? configuration.port
            var adminListener: (any Channel)?
            if let adminPort = configuration.adminPort {
                adminListener = try await bind(port: adminPort, adminOnly: true)
            }
            let address = ServerAddress(host: configuration.host, port: port, adminPort: adminListener?.localAddress?.port)
            listeningPorts.withLock { $0 = (port, address.adminPort) }
            state.withLock { s in
                s.listener = listener
                s.adminListener = adminListener
                s.port = port
                s.adminPort = address.adminPort
            }
            if configuration.adminToken == nil && !configuration.isLoopback {
                configuration.logger.warning("listening beyond loopback without an admin token: the admin API is off")
            }
            faults.observe { [weak self] in self?.rulesChanged() }
            // Rules that start the server offline must be in force before the caller gets the address.
            try? await rulesChanged()?.get()
            return address
        } catch {
            try? await shutdown()
            if let serverError = error as? ServerError { throw serverError }
            throw ServerError.bindFailed(host: configuration.host, port: configuration.port, reason: "\(error)")
        }
    }

    /// Where the server listens, once started.
    public var address: ServerAddress? {
        state.withLock { s in
            s.phase == .running && s.port != 0 ? ServerAddress(host: configuration.host, port: s.port, adminPort: s.adminPort) : nil
        }
    }

    /// Whether a `refuse` fault currently keeps the main port closed.
    public var isRefusing: Bool {
        state.withLock { $0.offline }
    }

    /// Stops listening and closes every connection, including stalled ones.
    public func shutdown() async throws {
        let channels: [any Channel] = state.withLock { s in
            s.phase = .stopped
            let all = [s.listener, s.adminListener].compactMap { $0 } + Array(s.connections.values)
            s.listener = nil
            s.adminListener = nil
            s.connections = [:]
            if let held = s.placeholder { PortPlaceholder.release(held) }
            s.placeholder = nil
            s.offlineEpoch += 1
            return all
        }
        for channel in channels {
            try? await channel.close()
        }
    }

    // MARK: Listening

    private func bind(port: Int, adminOnly: Bool) async throws -> any Channel {
        let idle = configuration.idleTimeout.timeAmount
        let bootstrap = ServerBootstrap(group: group)
            // A thousand clients connecting at once must not overflow the accept queue (the kernel caps it at somaxconn).
            .serverChannelOption(.backlog, value: 4096)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // NIO accepts 4 connections per event-loop turn by default, and each turn also serves every busy connection on
            // that loop: a thousand clients arriving at once then waited up to 2 s to be accepted (issue 16). A batch of 1024
            // empties a burst's queue in a few turns; 256 left the p99 of 5,000 connections at once 1.2-2x higher and less
            // steady (A/B in bench/README.md). Bounded, so one batch stalls the connections already served by tens of ms at most.
            .serverChannelOption(.maxMessagesPerRead, value: Self.acceptsPerLoopTurn)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            .childChannelInitializer { [weak self] channel in
                guard let self else { return channel.close() }
                return channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    // Outbound header validation is off: it cost 5% of a GET, and every header the server writes is a constant,
                    // generated, parsed by NIO, or a fault rule's header, which FaultRuleParser validates when it loads.
                    try sync.configureHTTPServerPipeline(
                        withPipeliningAssistance: true, withErrorHandling: false, withOutboundHeaderValidation: false)
                    try sync.addHandler(ProtocolErrorResponder())
                    try sync.addHandler(IdleStateHandler(readTimeout: idle))
                    if !adminOnly, let proxy = self.responder as? FaultProxy, proxy.streams {
                        try sync.addHandler(StreamingProxyHandler(server: self, proxy: proxy))
                    }
                    try sync.addHandler(HTTPConnectionHandler(server: self, adminOnly: adminOnly))
                    self.track(channel, adminOnly: adminOnly)
                }
            }
        return try await bootstrap.bind(host: configuration.bindHost, port: port).get()
    }

    /// How many queued connections the listener accepts per event-loop turn.
    static let acceptsPerLoopTurn: UInt = 1024

    private func track(_ channel: any Channel, adminOnly: Bool) {
        let id = ObjectIdentifier(channel)
        let keep = state.withLock { s -> Bool in
            guard s.phase == .running else { return false }
            // Admin connections are tracked too (for shutdown) but refuse only closes main-port ones.
            s.connections[id] = channel
            return true
        }
        guard keep else {
            channel.close(promise: nil)
            return
        }
        channel.closeFuture.whenComplete { [weak self] _ in
            self?.connectionClosed(id)
        }
        if !adminOnly {
            mainConnections.withLock { _ = $0.insert(id) }
            channel.closeFuture.whenComplete { [weak self] _ in
                _ = self?.mainConnections.withLock { $0.remove(id) }
            }
        }
    }

    private let mainConnections = Locked(Set<ObjectIdentifier>())

    private func connectionClosed(_ id: ObjectIdentifier) {
        let idle: Int? = state.withLock { s in
            s.connections.removeValue(forKey: id)
            guard s.connections.isEmpty, s.phase == .running else { return nil }
            s.idleEpoch += 1
            return s.idleEpoch
        }
        guard let idle else { return }
        group.next().scheduleTask(in: IdleMemoryTrim.delay) { [weak self] in
            guard let self, self.state.withLock({ $0.idleEpoch == idle && $0.connections.isEmpty }) else { return }
            IdleMemoryTrim.trim()
        }
    }

    // MARK: Refuse

    /// Closes the listener and every main-port connection except `sparing` (which its handler closes after answering);
    /// listens again on the same port after `ms` (never when nil).
    @discardableResult
    func refuse(for ms: Int?, sparing: ObjectIdentifier? = nil) -> EventLoopFuture<Void> {
        let main = mainConnections.withLock { $0 }
        if ms == 0 { return refuseForNoTime(main: main, sparing: sparing) }
        let (listener, victims, epoch): ((any Channel)?, [any Channel], Int) = state.withLock { s in
            guard s.phase == .running else { return (nil, [], 0) }
            s.offline = true
            s.offlineEpoch += 1
            let l = s.listener
            s.listener = nil
            return (l, s.channels(in: main, except: sparing), s.offlineEpoch)
        }
        // Connections close only once the listener is gone, so a client that sees its connection end is refused on reconnect.
        let closeVictims: @Sendable () -> Void = { for channel in victims { channel.close(promise: nil) } }
        let closed: EventLoopFuture<Void>
        if let listener {
            closed = listener.close().always { [weak self] _ in
                self?.holdPort(epoch: epoch)
                closeVictims()
            }
        } else {
            closeVictims()
            closed = group.next().makeSucceededVoidFuture()
        }
        if listener != nil || !victims.isEmpty {
            configuration.logger.info("refusing connections\(ms.map { " for \($0) ms" } ?? " until the rules change")")
        }
        if let ms {
            group.next().scheduleTask(in: .milliseconds(Int64(ms))) { [weak self] in
                self?.listenAgain(epoch: epoch)
            }
        }
        return closed.recover { _ in }
    }

    /// A window of no length refuses no connect, so the listener stays up: closing it and binding again would leave
    /// a window as long as a re-bind takes on a busy machine, and a client connecting right after the rule would be
    /// refused by a rule that promised it would not be. Open main-port connections still close, as with any refuse;
    /// an earlier window still open ends, as with any rule change that does not take the server offline.
    private func refuseForNoTime(main: Set<ObjectIdentifier>, sparing: ObjectIdentifier?) -> EventLoopFuture<Void> {
        let victims = state.withLock { s in s.phase == .running ? s.channels(in: main, except: sparing) : [] }
        endRefuseWindow()
        for channel in victims { channel.close(promise: nil) }
        return group.next().makeSucceededVoidFuture()
    }

    /// Ends the refuse window in force, if any: the server listens on its port again.
    private func endRefuseWindow() {
        let epoch: Int? = state.withLock { s in
            guard s.phase == .running, s.offline else { return nil }
            s.offlineEpoch += 1
            return s.offlineEpoch
        }
        if let epoch { listenAgain(epoch: epoch) }
    }

    /// Keeps the freed main port bound (not listening) while this refuse window lasts.
    private func holdPort(epoch: Int) {
        state.withLock { s in
            guard s.phase == .running, s.offline, s.offlineEpoch == epoch, s.listener == nil, s.placeholder == nil else { return }
            s.placeholder = PortPlaceholder.hold(host: configuration.host, port: s.port)
        }
    }

    /// Re-binds the same port after a refuse window, retrying briefly while the old socket lets go.
    private func listenAgain(epoch: Int) {
        let port: Int? = state.withLock { s in
            guard s.phase == .running, s.offline, s.offlineEpoch == epoch, s.listener == nil else { return nil }
            return s.port
        }
        guard let port else { return }
        Task {
            for attempt in 0..<50 {
                // Released on every attempt: the placeholder may be taken after this window already ended.
                state.withLock { s in
                    if let held = s.placeholder { PortPlaceholder.release(held) }
                    s.placeholder = nil
                }
                do {
                    let channel = try await bind(port: port, adminOnly: false)
                    let kept = state.withLock { s -> Bool in
                        guard s.phase == .running, s.offlineEpoch == epoch, s.listener == nil else { return false }
                        s.listener = channel
                        s.offline = false
                        return true
                    }
                    if kept {
                        configuration.logger.info("listening again on port \(port)")
                    } else {
                        try? await channel.close()
                    }
                    return
                } catch {
                    if attempt == 49 {
                        configuration.logger.error("could not listen on port \(port) again after a refuse window: \(error)")
                    }
                    try? await Task.sleep(for: .milliseconds(20))
                }
            }
        }
    }

    /// A rule change ends any refuse window, unless the new rules take the server offline themselves.
    @discardableResult
    private func rulesChanged() -> EventLoopFuture<Void>? {
        if case .refuse(let ms)? = faults.standingRefusal {
            return refuse(for: ms)
        }
        endRefuseWindow()
        return nil
    }

    // MARK: Logging

    func logRequest(_ entry: JournalEntry, uri: String) {
        guard !configuration.quiet else { return }
        var line = "\(entry.method) \(uri) -> \(entry.status.map(String.init) ?? "no answer")"
        if let contract = entry.contract { line += " \(contract)" }
        if let code = entry.errorCode { line += " " + code + (entry.errorField.map { "(\($0))" } ?? "") }
        if let fault = entry.fault { line += " fault=\(fault)" }
        if let rule = entry.rule { line += " rule=\"\(rule)\"" }
        line += " \(entry.durationMs)ms"
        configuration.logger.info("\(line)")
    }
}
