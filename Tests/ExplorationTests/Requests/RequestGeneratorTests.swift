import ClientDoubles
import ContractKit
import Testing

@testable import Exploration

/// `verify`'s generated requests follow the contract set's own paths, so another API of the same shape is probed under
/// its own names (issue 44, point 4).
@Suite struct RequestGeneratorTests {
    @Test func theAdminDeleteOfAnUnknownIdFollowsTheContractsOwnPath() throws {
        func deletes(_ contracts: ContractSet) -> Set<String> {
            Set(RequestGenerator(contracts: contracts, adminChecks: true).systematicCases()
                .filter { $0.method == "DELETE" && $0.path.hasSuffix("{unknown}") && $0.label == "under the admin mount" }.map(\.path))
        }
        #expect(deletes(try ContractSet.load(from: ContractSet.bundledDirectory)) == ["/api/admin/v1/announcements/{unknown}"])
        #expect(deletes(try RenamedContracts.load()) == ["/api/admin/v1/cases/{unknown}"])
    }
}
