import ContractKit
import Foundation
import Testing

@testable import ScenarioEngine

/// `verify` against a server shared between runs: the fields the contracts declare unique get this run's own values,
/// consistently, so a documented create never meets a false 409 and a documented duplicate still conflicts.
@Suite struct UniqueStandInsTests {
    static let newest = ContractSet.bundledDirectory.appendingPathComponent("versions/2026-01-12")

    @Test func theUniqueFieldsComeFromTheStateDeclarations() throws {
        let seeds = UniqueStandIns(contracts: try ContractSet.load(from: ContractSet.bundledDirectory), runToken: "run1")
        #expect(seeds.fields == ["microchipNumber"])
        let newest = UniqueStandIns(contracts: try ContractSet.load(from: Self.newest), runToken: "run1")
        #expect(newest.fields == ["microchipNumber", "email"])
    }

    @Test func oneExampleValueStandsForOneFreshValueInEveryBody() throws {
        let standIns = UniqueStandIns(contracts: try ContractSet.load(from: Self.newest), runToken: "abc123")
        let register = standIns.applied(to: ["email": "owner@example.com", "password": "correct horse"])
        let login = standIns.applied(to: ["email": "OWNER@example.com", "password": "correct horse"])
        let email = try #require(register["email"]?.stringValue)
        #expect(email == "scabc123-owner@example.com")
        // The same account in another case still logs in, as the backend keys users by the lower-cased email.
        #expect(login["email"]?.stringValue?.lowercased() == email)
        #expect(register["password"] == "correct horse")
        // Invalid and empty values are left alone: they must keep failing the rule they were written for.
        #expect(standIns.applied(to: ["email": ""]) == ["email": ""])
        let chip = try #require(standIns.applied(to: ["microchipNumber": "123456789012"])["microchipNumber"]?.stringValue)
        #expect(chip.allSatisfy { $0.isNumber } && chip.count >= 12 && chip != "123456789012")
        #expect(standIns.applied(to: ["microchipNumber": "123456789012"])["microchipNumber"]?.stringValue == chip)
    }

    @Test func twoRunsGetDifferentValues() throws {
        let contracts = try ContractSet.load(from: Self.newest)
        let a = UniqueStandIns(contracts: contracts, runToken: "first").standIn(for: "123456789012")
        let b = UniqueStandIns(contracts: contracts, runToken: "second").standIn(for: "123456789012")
        #expect(a != b)
    }
}
