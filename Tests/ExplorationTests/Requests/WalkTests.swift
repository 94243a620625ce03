import ContractKit
import Foundation
import ContractModel
import MockBackend
import NIOCore
import NIOHTTP1
import Testing
@testable import Exploration

/// Servers that differ from the model only after a sequence of operations, each in one way: a default exploration finds
/// each by walking the declared operations (the systematic cases alone never meet it), shrinks the walk and reports its steps.
@Suite struct WalkTests {
    /// What a changed server remembers between requests.
    final class Memory: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String: String] = [:]
        private var flags: Set<String> = []

        func set(_ key: String, _ value: String) {
            lock.lock()
            defer { lock.unlock() }
            values[key] = value
        }
        func value(_ key: String) -> String? {
            lock.lock()
            defer { lock.unlock() }
            return values[key]
        }
        func flag(_ key: String) {
            lock.lock()
            defer { lock.unlock() }
            flags.insert(key)
        }
        func isFlagged(_ key: String) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            return flags.contains(key)
        }
    }

    static func isList(_ request: MockRequest) -> Bool {
        request.method == .GET && request.path.split(separator: "?").first.map(String.init) == "/api/v1/announcements"
    }

    static func lastComponent(_ request: MockRequest) -> String {
        String(request.path.split(separator: "?").first?.split(separator: "/").last ?? "")
    }

    /// A server that answers a second delete of the same record 204, as it answered the first (the model: 404).
    static func answeringASecondDeleteAsTheFirst() -> ChangedServer.Bend {
        let deleted = Memory()
        return { request, response in
            guard request.method == .DELETE else { return response }
            let id = Self.lastComponent(request)
            if response.status == .noContent || response.status == .ok { deleted.flag(id) }
            if response.status == .notFound, deleted.isFlagged(id) {
                var headers = HTTPHeaders()
                headers.add(name: "request-id", value: "abcdefghij")
                return MockResponse(status: .noContent, headers: headers, body: ByteBuffer())
            }
            return response
        }
    }

    static func walkGroups(_ outcome: ExplorationOutcome) -> [DifferenceGroup] {
        RequestExplorerTests.failing(outcome).filter { !$0.walk.isEmpty }
    }

    /// `serve --seed N` and `verify --seed N` together (as CI runs them): the ids the exploration draws as "held by no
    /// server" are never ids such a server hands out. They were, and a walk's delete of a refused record answered 204.
    @Test func anUnknownIDIsNeverOneASeededServerCreates() {
        for seed: UInt64 in 1...5 {
            var server = ModelRandom(seed: seed), exploration = ModelRandom(seed: seed ^ LockstepRun.streamOffset)
            let created = Set((0..<2_000).map { _ in server.uuid() })
            let drawn = (0..<2_000).map { _ in exploration.uuid() }
            #expect(drawn.allSatisfy { !created.contains($0) }, "seed \(seed)")
        }
    }

    @Test func aListCutAtTwentyRecordsIsFoundByTheWalkThatFillsIt() async throws {
        let outcome = try await RequestExplorerTests.explore(bend: { request, response in
            guard Self.isList(request) else { return response }
            return ChangedServer.rewrite(response) { body in
                guard var object = body.objectValue, let items = object["data"]?.arrayValue else { return body }
                object["data"] = .array(Array(items.prefix(20)))
                return .object(object)
            }
        })
        let failing = RequestExplorerTests.failing(outcome)
        #expect(failing.count == 1, "\(failing.map(\.headline))")
        let group = try #require(Self.walkGroups(outcome).first)
        #expect(group.route == "listAnnouncements")
        #expect(group.walk.last?.contains("list") == true, "\(group.walk)")
        // Shrunk: fewer steps than the walk that fills the list, yet more than twenty records' worth of creates.
        #expect(group.walk.count < 2 * WalkRunner.fillRecords + 1, "\(group.walk.count)")
        #expect(group.walk.filter { $0.contains("create") }.count >= 15, "\(group.walk)")
        #expect(ExplorationResults.consoleLines(outcome, strictHeaders: false).contains { $0.contains("walk step") })
        #expect(outcome.walks > 0 && outcome.walkSteps > 0)
    }

    @Test func aSecondDeleteOfTheSameRecordAnsweredAsTheFirstIsFound() async throws {
        let outcome = try await RequestExplorerTests.explore(bend: Self.answeringASecondDeleteAsTheFirst())
        let failing = RequestExplorerTests.failing(outcome)
        #expect(!failing.isEmpty)
        #expect(failing.allSatisfy { !$0.walk.isEmpty && $0.model.hasPrefix("404") && $0.server.hasPrefix("204") }, "\(failing.map(\.headline))")
        let group = try #require(failing.first)
        #expect(group.walk.filter { $0.contains("delete") }.count >= 2, "\(group.walk)")
    }

    @Test func aUniqueValueKeptAfterItsRecordIsDeletedIsFound() async throws {
        let chips = Memory()
        let outcome = try await RequestExplorerTests.explore(intercept: { request in
            guard ChangedServer.isCreate(request), let chip = ChangedServer.json(request)?["microchipNumber"]?.stringValue,
                chips.isFlagged(chip)
            else { return nil }
            return ChangedServer.error("CONFLICT", field: "microchipNumber", message: "An entity with this value already exists", status: .conflict)
        }, bend: { request, response in
            if ChangedServer.isCreate(request), response.status == .created,
                let id = (try? JSONValue(parsing: Data(response.body.readableBytesView)))?["id"]?.stringValue,
                let chip = ChangedServer.json(request)?["microchipNumber"]?.stringValue {
                chips.set(id, chip)
            }
            if request.method == .DELETE, response.status == .noContent || response.status == .ok, let chip = chips.value(Self.lastComponent(request)) {
                chips.flag(chip)
            }
            return response
        })
        let failing = RequestExplorerTests.failing(outcome)
        #expect(!failing.isEmpty)
        #expect(failing.allSatisfy { !$0.walk.isEmpty && $0.model == "201" && $0.server.hasPrefix("409") }, "\(failing.map(\.headline))")
        let group = try #require(failing.first)
        #expect(group.walk.count == 3, "create, delete, create reusing: \(group.walk)")
        #expect(group.walk.last?.contains("reusing") == true, "\(group.walk)")
    }

    @Test func withoutWalksTheSystematicCasesMissTheCutList() async throws {
        let server = try await ChangedServer.start(bend: { request, response in
            guard Self.isList(request) else { return response }
            return ChangedServer.rewrite(response) { body in
                guard var object = body.objectValue, let items = object["data"]?.arrayValue else { return body }
                object["data"] = .array(Array(items.prefix(20)))
                return .object(object)
            }
        })
        var options = RequestExplorer.Options(seed: RequestExplorerTests.seed)
        options.adminToken = "tajnehasloadmina"
        options.walks = false
        let contracts = try RequestExplorerTests.contracts.get()
        let outcome = await ExplorationSlots.shared.run { await RequestExplorer(contracts: contracts, target: server.baseURL, options: options).explore() }
        try await server.shutdown()
        #expect(RequestExplorerTests.failing(outcome).isEmpty, "\(RequestExplorerTests.failing(outcome).map(\.headline))")
        #expect(outcome.walks == 0)
    }
}
