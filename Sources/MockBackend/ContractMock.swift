import ContractKit
import ContractModel
import Foundation
import Logging
import NIOHTTP1

/// The one-call embedding of the mock of a contract set: the SwiftNIO server, fault layer and journal in front of the stateful backend.
///
/// Used by tests, the scenario engine and `spotcheck serve`; always `shutdown()` what you `start`.
public struct ContractMock: Sendable {
    /// Everything that can be set when starting the mock.
    public struct Options: Sendable {
        /// The address to bind; loopback unless told otherwise.
        public var host: String
        /// The port; 0 picks a free one (read it back from `port`).
        public var port: Int
        /// Makes ids, passwords, request ids and probabilistic faults reproducible.
        public var seed: UInt64?
        /// A fixtures file to preload (see `contracts/fixtures/pets.json`).
        public var fixtures: URL?
        /// Fault rules active from the start.
        public var faults: [FaultRule]
        /// How many requests the journal keeps (oldest dropped first).
        public var journalLimit: Int
        /// The token for the admin API (`X-SpotCheck-Admin-Token`) and for `DELETE` (the whole `Authorization` value); nil on loopback: DELETE takes the service file's `adminTokenOnLoopback`.
        public var adminToken: String?
        /// A second port for the admin API only (it stays up while a `refuse` fault closes the main port); 0 picks one.
        public var adminPort: Int?
        /// The contracts the backend validates requests and its own answers with.
        public var contracts: ContractSet
        /// No per-request log line.
        public var quiet: Bool
        /// Validate every answer against its contract and flag violations in a header (on in debug builds).
        public var checkResponses: Bool
        /// Where server and backend log.
        public var logger: Logger
        /// How long a silent connection may stay open.
        public var idleTimeout: Duration
        /// The clock for timestamps and the "not in the future" date rule.
        public var now: @Sendable () -> Date
        /// Deliberate departures from the contracts (tests of `spotcheck verify` only); empty for a faithful backend.
        public var drift: Set<ContractDrift> = []
        /// The most records created through the API that are kept, oldest evicted first; nil keeps all.
        public var storeLimit: Int?
        /// The most bytes stored records and files may take, oldest created evicted first; nil bounds nothing.
        public var storeMaxBytes: Int? = Options.defaultStoreMaxBytes
        /// Answer like the real server where `known-defects.json` lists a defect with a trigger (e.g. 500 for malformed JSON).
        public var reproduceKnownDefects = false
        /// Validates, counts and records every exchange (see `ExchangeMonitor`); nil checks nothing beyond `checkResponses`.
        public var exchangeObserver: (any ExchangeObserver)?
        /// Host names, besides loopback, address literals and `host`, that the admin API and dashboard answer (`--allow-host`).
        public var allowedHosts: [String] = []
        /// A directory that keeps the records, their secrets and files across restarts; nil keeps them in memory only.
        public var dataDirectory: URL?
        /// Records to preload besides the `fixtures` file's (a scenario's inline `backend.fixtures`).
        public var preloaded: [RecordFixture] = []
        /// The clock time-based fault rules read (the wall clock; scenarios pass a `VirtualFaultClock`).
        public var faultClock: any FaultClock = SystemFaultClock()
        /// Let browser pages on other sites delete and get Express's open CORS preflight, as the real backend does (`--allow-browser-admin`).
        public var allowBrowserAdmin = false
        /// Send what the model assumed for each answer as `x-spotcheck-assumption` lines (verify's embedded model).
        public var sendsAssumptions = false
        /// Whether `journal.har` keeps secrets (`--keep-secrets`); by default it redacts what the contracts declare.
        public var keepSecrets = false
        /// How many bytes of each body the journal keeps (`CapturedBody.defaultLimit` unless a judge needs whole bodies).
        public var journalBodyLimit = CapturedBody.defaultLimit

        /// Options with the defaults of the brief: 127.0.0.1, port 0, no seed, no fixtures, no faults, a 1000-entry journal.
        public init(
            contracts: ContractSet, host: String = "127.0.0.1", port: Int = 0, seed: UInt64? = nil, fixtures: URL? = nil,
            faults: [FaultRule] = [], journalLimit: Int = 1000, adminToken: String? = nil, adminPort: Int? = nil, quiet: Bool = false,
            checkResponses: Bool = ModelBackend.checksResponsesByDefault, logger: Logger = Logger(label: "spotcheck.serve"),
            idleTimeout: Duration = .seconds(60), now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.contracts = contracts
            self.host = host
            self.port = port
            self.seed = seed
            self.fixtures = fixtures
            self.faults = faults
            self.journalLimit = journalLimit
            self.adminToken = adminToken
            self.adminPort = adminPort
            self.quiet = quiet
            self.checkResponses = checkResponses
            self.logger = logger
            self.idleTimeout = idleTimeout
            self.now = now
        }
    }

    /// The stateful backend answering behind the server.
    public let backend: ModelBackend
    /// The running server.
    public let server: MockServer
    /// Where it listens.
    public let address: ServerAddress

    /// `http://host:port`.
    public var baseURL: URL { address.baseURL }
    /// The bound port.
    public var port: Int { address.port }
    /// `http://host:adminPort`, when an admin port was asked for.
    public var adminBaseURL: URL? { address.adminBaseURL }
    /// Every request seen, with its contract, status, auth user and fault.
    public var journal: Journal { server.journal }
    /// The live fault rules (replaceable at runtime).
    public var faults: FaultLayer { server.faults }

    /// Loads the fixtures, builds the backend and starts listening; throws `RecordFixtureError`, a missing-schema error or the bind failure.
    public static func start(_ options: Options) async throws -> ContractMock {
        let fixtures = try (options.fixtures.map { url throws(RecordFixtureError) in try RecordFixture.load(from: url, collections: options.contracts.state.collections) } ?? []) + options.preloaded
        var backendConfiguration = ModelBackend.Configuration(
            contracts: options.contracts, seed: options.seed, fixtures: fixtures, adminToken: options.adminToken ?? options.defaultDeleteToken,
            checkResponses: options.checkResponses, now: options.now, storeLimit: options.storeLimit)
        backendConfiguration.storeMaxBytes = options.storeMaxBytes
        backendConfiguration.allowBrowserAdmin = options.allowBrowserAdmin
        if options.reproduceKnownDefects { backendConfiguration.knownDefects = options.contracts.knownDefects }
        // The log is named after the primary collection (the first declared), the one records without a collection join.
        let primary = options.contracts.state.collections.first?.name
        backendConfiguration.dataDirectory = try options.dataDirectory.map { url throws(StoreDataDirectoryError) in
            try StoreDataDirectory.open(url, collection: primary)
        }
        let backend = try ModelBackend(configuration: backendConfiguration, logger: options.logger)
        var configuration = ServerConfiguration(
            host: options.host, port: options.port, adminPort: options.adminPort, adminToken: options.adminToken,
            idleTimeout: options.idleTimeout, logger: options.logger, quiet: options.quiet)
        configuration.allowedHosts = options.allowedHosts
        configuration.journalBodyLimit = options.journalBodyLimit
        configuration.browserFacing = BrowserFacingEndpoints(contracts: options.contracts)
        configuration.allowBrowserAdmin = options.allowBrowserAdmin
        configuration.sendsAssumptions = options.sendsAssumptions
        configuration.harSecrets = options.keepSecrets ? nil : SecretNames(contracts: options.contracts)
        configuration.faultContracts = options.contracts.contracts.map(\.id)
        let server = MockServer(
            configuration: configuration,
            responder: options.drift.isEmpty ? backend : DriftResponder(wrapping: backend, drifts: options.drift, contracts: options.contracts), faults: FaultLayer(rules: options.faults, seed: options.seed, clock: options.faultClock),
            journal: Journal(limit: options.journalLimit), admin: ModelAdminHooks(store: backend.store, collections: options.contracts.state.collections),
            contractID: { [routes = options.contracts.routes] method, path in routes.contractID(method: method, path: path) },
            routes: options.contracts.routes, exchangeObserver: options.exchangeObserver)
        let address = try await server.start()
        return ContractMock(backend: backend, server: server, address: address)
    }

    /// How many records are stored right now, in every collection.
    public func recordCount() async -> Int {
        backend.store.count
    }

    /// Stops listening and closes every connection.
    public func shutdown() async throws {
        try await server.shutdown()
        // Releases the data directory, so a restarted mock in this process can open it.
        backend.store.persistence?.close()
    }
}

extension ContractMock.Options {
    /// The default byte bound of the store: room for a day of development (about 250,000 typical PetSpot records, or a
    /// few hundred with large photos; petspot-api.md) on a laptop, and far below what hurts one.
    public static let defaultStoreMaxBytes = 256 * 1024 * 1024

    /// DELETE's credential without `--admin-token`: on loopback, the token the real server hard-codes as the contracts'
    /// service file states it (`adminTokenOnLoopback`); none (every DELETE 401) beyond it.
    var defaultDeleteToken: String? {
        ServerConfiguration(host: host).isLoopback ? contracts.service.adminTokenOnLoopback : nil
    }
}

