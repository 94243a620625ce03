import ContractKit
import Foundation
import ContractModel
import MockBackend
import NIOCore
import NIOHTTP1
import ScenarioEngine
import Testing
@testable import Exploration

/// `verify`'s exploration against servers written here, each differing from the model in one way a backend team could
/// ship: each change is found, shrunk to a minimal request, and grouped under one rule; the mock itself differs in nothing.
@Suite struct RequestExplorerTests {
    static let contracts = Result { try ContractSet.load(from: ContractSet.bundledDirectory) }
    static let seed: UInt64 = 24

    static func explore(_ url: URL, adminToken: String? = "tajnehasloadmina") async throws -> ExplorationOutcome {
        var options = RequestExplorer.Options(seed: seed)
        options.adminToken = adminToken
        // Generous: a timeout here must only ever mean a server that stopped answering.
        options.timeout = .seconds(120)
        let contracts = try contracts.get()
        return await ExplorationSlots.shared.run { await RequestExplorer(contracts: contracts, target: url, options: options).explore() }
    }

    static func explore(intercept: @escaping ChangedServer.Intercept = { _ in nil },
                        bend: @escaping ChangedServer.Bend = { $1 }, rewrite: @escaping ChangedServer.Rewrite = { $0 }) async throws -> ExplorationOutcome {
        let server = try await ChangedServer.start(intercept: intercept, bend: bend, rewrite: rewrite)
        let outcome: ExplorationOutcome
        do {
            outcome = try await explore(server.baseURL)
        } catch {
            try await server.shutdown()
            throw error
        }
        try await server.shutdown()
        #expect(outcome.setupFailure == nil)
        return outcome
    }

    static func failing(_ outcome: ExplorationOutcome) -> [DifferenceGroup] {
        outcome.groups.filter { $0.knownDefect == nil }
    }

    @Test func theMockItselfDiffersInNothingAndIsCleanedUp() async throws {
        let mock = try await ContractMock.start(.init(contracts: try Self.contracts.get(), quiet: true))
        let outcome = try await Self.explore(mock.baseURL)
        let left = await mock.recordCount()
        try await mock.shutdown()
        #expect(outcome.setupFailure == nil)
        #expect(outcome.groups.isEmpty, "\(outcome.groups.map(\.headline))")
        #expect(outcome.headersAdded.isEmpty && outcome.headersRemoved.isEmpty)
        #expect(outcome.casesSent == RequestExplorer.defaultCases)
        #expect(!outcome.createdOnServer.isEmpty)
        #expect(outcome.deletedOnServer.count == outcome.createdOnServer.count)
        #expect(left == 0, "exploration with the admin token leaves nothing behind")
        #expect(ExplorationResults.results(outcome, strictHeaders: true).allSatisfy { $0.status != .failed })
    }

    @Test func theMockWithItsKnownDefectsShowsOnlyKnownDefects() async throws {
        var options = ContractMock.Options(contracts: try Self.contracts.get(), quiet: true)
        options.reproduceKnownDefects = true
        let mock = try await ContractMock.start(options)
        let outcome = try await Self.explore(mock.baseURL)
        try await mock.shutdown()
        #expect(Self.failing(outcome).isEmpty, "\(Self.failing(outcome).map(\.headline))")
        #expect(outcome.groups.contains { $0.knownDefect?.id == "json-parser-malformed-500" })
    }

    @Test func aBlankEmailNextToAValidPhoneIsFoundShrunkAndGrouped() async throws {
        let outcome = try await Self.explore(intercept: { request in
            guard ChangedServer.isCreate(request), let email = ChangedServer.json(request)?["email"]?.stringValue,
                email.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            else { return nil }
            return ChangedServer.error("INVALID_FORMAT", field: "email", message: "email format is invalid")
        })
        let groups = Self.failing(outcome).filter { $0.model == "201" && $0.server.hasPrefix("400 INVALID_FORMAT email") }
        #expect(groups.count == 1, "\(Self.failing(outcome).map(\.headline))")
        let group = try #require(groups.first)
        #expect(group.route == "createAnnouncement")
        #expect(group.rule.hasPrefix("email \"\""), "\(group.rule)")
        #expect(group.rule.contains("a valid phone"))
        #expect(group.count > 1)
        #expect(group.minimalRequest.contains("\"email\":\"\""))
        #expect(group.headline.contains("generated cases; minimal request: POST /api/v1/announcements {"))
    }

    @Test func aChangedMessageIsFound() async throws {
        let outcome = try await Self.explore(bend: { _, response in
            ChangedServer.rewrite(response) { body in
                guard body["error"]?["message"]?.stringValue == "invalid email format", var error = body["error"]?.objectValue else { return body }
                error["message"] = "email format is invalid"
                return .object(["error": .object(error)])
            }
        })
        let groups = Self.failing(outcome)
        #expect(!groups.isEmpty)
        #expect(groups.allSatisfy { $0.differences.map(\.aspect) == ["body /error/message"] }, "\(groups.map(\.headline))")
        #expect(groups.allSatisfy { $0.server.hasSuffix("\"email format is invalid\"") })
        // Shrinking leaves the email and the required fields only.
        #expect(groups.contains { !$0.minimalRequest.contains("\"phone\"") || $0.rule.hasPrefix("email") })
    }

    @Test func aNewLengthLimitIsFound() async throws {
        let outcome = try await Self.explore(intercept: { request in
            guard ChangedServer.isCreate(request), let email = ChangedServer.json(request)?["email"]?.stringValue, email.count > 254 else { return nil }
            return ChangedServer.error("INVALID_FORMAT", field: "email", message: "email format is invalid")
        })
        // Where another field is invalid too, the model names that field first and the server the email: those are
        // other rules. The change itself is one group: a long email the model accepts.
        let groups = Self.failing(outcome)
        #expect(groups.allSatisfy { $0.server == "400 INVALID_FORMAT email \"email format is invalid\"" }, "\(groups.map(\.headline))")
        let accepted = groups.filter { $0.model == "201" }
        #expect(accepted.count == 1, "\(groups.map(\.headline))")
        let group = try #require(accepted.first)
        #expect(group.rule.hasPrefix("email \"aaaa"), "\(group.rule)")
        #expect(group.rule.contains("255 characters") || group.rule.contains("320 characters"), "\(group.rule)")
    }

    @Test func aRouteRemovedFromTheAdminMountIsFound() async throws {
        let outcome = try await Self.explore(intercept: { request in
            guard request.path.lowercased().hasPrefix("/api/admin/v1"), request.method != .DELETE else { return nil }
            return ChangedServer.error("NOT_FOUND", field: nil, message: "Not found", status: .notFound)
        })
        let groups = Self.failing(outcome)
        #expect(!groups.isEmpty)
        #expect(groups.allSatisfy { $0.rule == "under the admin mount" && $0.server.hasPrefix("404") }, "\(groups.map(\.headline))")
        #expect(groups.contains { $0.route.hasPrefix("POST /api/admin/v1/announcements") })
    }

    @Test func anAddedHeaderIsInformationalUnlessStrict() async throws {
        let outcome = try await Self.explore(bend: { _, response in
            var response = response
            response.headers.add(name: "Strict-Transport-Security", value: "max-age=15552000; includeSubDomains")
            return response
        })
        #expect(Self.failing(outcome).isEmpty, "\(Self.failing(outcome).map(\.headline))")
        #expect(outcome.headersAdded.map(\.name) == ["strict-transport-security"])
        #expect(ExplorationResults.results(outcome, strictHeaders: false).allSatisfy { $0.status != .failed })
        #expect(ExplorationResults.results(outcome, strictHeaders: true).contains { $0.status == .failed })
    }

    @Test func aStoredValueReturnedDifferentlyIsFound() async throws {
        let outcome = try await Self.explore(bend: { request, response in
            guard request.method == .GET, request.path.hasPrefix("/api/v1/announcements/") else { return response }
            return ChangedServer.rewrite(response) { body in
                guard var object = body.objectValue, let text = object["description"]?.stringValue else { return body }
                object["description"] = .string(text.trimmingCharacters(in: .whitespaces))
                return .object(object)
            }
        })
        let groups = Self.failing(outcome)
        #expect(groups.count == 1, "\(groups.map(\.headline))")
        let group = try #require(groups.first)
        #expect(group.differences.map(\.aspect) == ["read back body /description"])
        #expect(group.rule.hasPrefix("description"), "\(group.rule)")
    }

    @Test(arguments: ContractDrift.allCases)
    func eachDriftIsFound(_ drift: ContractDrift) async throws {
        var options = ContractMock.Options(contracts: try Self.contracts.get(), quiet: true)
        options.drift = [drift]
        let mock = try await ContractMock.start(options)
        let outcome = try await Self.explore(mock.baseURL)
        try await mock.shutdown()
        #expect(outcome.setupFailure == nil)
        #expect(!Self.failing(outcome).isEmpty, "\(drift) went unnoticed")
        if drift == .missingRequestID {
            // request-id is required by every contract's answers: its loss is a failure, not a header note.
            #expect(Self.failing(outcome).allSatisfy { $0.differences.contains { $0.aspect == "header request-id" } })
        }
    }

    @Test func theSameSeedGeneratesTheSameRequests() throws {
        let generator = RequestGenerator(contracts: try Self.contracts.get(), adminChecks: false)
        var first = ModelRandom(seed: 5)
        var second = ModelRandom(seed: 5)
        var third = ModelRandom(seed: 6)
        let a = (0..<50).compactMap { _ in generator.randomCase(using: &first)?.label }
        let b = (0..<50).compactMap { _ in generator.randomCase(using: &second)?.label }
        let c = (0..<50).compactMap { _ in generator.randomCase(using: &third)?.label }
        #expect(a == b)
        #expect(a != c)
        #expect(generator.systematicCases().map(\.label) == generator.systematicCases().map(\.label))
    }
}
