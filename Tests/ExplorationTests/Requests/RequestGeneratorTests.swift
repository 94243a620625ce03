import ClientDoubles
import ContractKit
import Testing

@testable import Exploration

/// The routes `verify` probes beyond the contracts come from the set's own collections, so another API of the same shape
/// is probed under its own names (issue 44, point 4).
@Suite struct RequestGeneratorTests {
    private static func beyond(_ contracts: ContractSet) -> [String] {
        RequestGenerator(contracts: contracts, adminChecks: true).systematicCases()
            .filter { $0.label == "a route no contract documents" }.map { "\($0.method) \($0.path)" }
    }

    @Test func theBundledSetIsProbedBesideItsCollection() throws {
        let routes = Self.beyond(try ContractSet.load(from: ContractSet.bundledDirectory))
        #expect(routes.contains("POST /api/v1/users"))
        #expect(routes.contains("POST /api/v1/users/login"))
        #expect(routes.contains("GET /api/v2/announcements"))
        #expect(routes.contains("PUT /api/v1/announcements/{slot0}"))
        #expect(routes.contains("PATCH /api/v1/announcements/{slot0}"))
        #expect(routes.contains("GET /"))
    }

    @Test func aRenamedSetIsProbedUnderItsOwnPaths() throws {
        let routes = Self.beyond(try RenamedContracts.load())
        #expect(routes.contains("GET /api/v2/cases"))
        #expect(routes.contains("PUT /api/v1/cases/{slot0}"))
        #expect(routes.contains("POST /api/v1/users/login"))
        #expect(!routes.contains { $0.contains("announcements") }, "\(routes)")
    }

    @Test func aDocumentedRouteIsNotProbedAsUndocumented() throws {
        // The newest version documents registration and login: they are checked by their contracts instead.
        let routes = Self.beyond(try ContractSet.load(from: ContractSet.bundledDirectory.appendingPathComponent("versions/2026-01-12")))
        #expect(!routes.contains("POST /api/v1/users"))
        #expect(!routes.contains("POST /api/v1/users/login"))
        #expect(routes.contains("GET /api/v1/users"))
    }

    @Test func theNextVersionRaisesTheFirstVersionSegment() {
        #expect(RequestGenerator.nextVersion(of: "/api/v1/announcements") == "/api/v2/announcements")
        #expect(RequestGenerator.nextVersion(of: "/v9/items") == "/v10/items")
        #expect(RequestGenerator.nextVersion(of: "/api/announcements") == nil)
        #expect(RequestGenerator.nextVersion(of: "/api/video/clips") == nil)
    }

    @Test func theAdminDeleteOfAnUnknownIdFollowsTheContractsOwnPath() throws {
        func deletes(_ contracts: ContractSet) -> Set<String> {
            Set(RequestGenerator(contracts: contracts, adminChecks: true).systematicCases()
                .filter { $0.method == "DELETE" && $0.path.hasSuffix("{unknown}") && $0.label == "under the admin mount" }.map(\.path))
        }
        #expect(deletes(try ContractSet.load(from: ContractSet.bundledDirectory)) == ["/api/admin/v1/announcements/{unknown}"])
        #expect(deletes(try RenamedContracts.load()) == ["/api/admin/v1/cases/{unknown}"])
    }

    private static func extraKeys(_ contracts: ContractSet) -> [String] {
        RequestGenerator(contracts: contracts, adminChecks: false).systematicCases()
            .compactMap { $0.label.hasPrefix("an extra key ") ? String($0.label.dropFirst("an extra key ".count)) : nil }
    }

    @Test func extraKeysAreTheOnesTheCreatesStateOwns() throws {
        let keys = Set(Self.extraKeys(try ContractSet.load(from: ContractSet.bundledDirectory)))
        #expect(keys == ["nickname", "id", "managementPassword", "createdAt", "updatedAt", "photoUrl", "Species"])
    }

    @Test func aRenamedSetGetsItsOwnServerOwnedKeys() throws {
        let keys = Set(Self.extraKeys(try RenamedContracts.load()))
        #expect(keys.contains("casePin"))
        #expect(!keys.contains("managementPassword"))
    }
}
