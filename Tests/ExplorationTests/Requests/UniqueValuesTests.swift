import ContractKit
import Foundation
import ScenarioEngine
import Testing
@testable import Exploration

/// Exploration's fresh and reused unique values come from `x-state.unique`, for every unique field, through the same
/// `UniqueStandIns` verify's example checks use; nothing falls back to a field chosen by name.
@Suite struct UniqueValuesTests {
    static let newest = ContractSet.bundledDirectory.appendingPathComponent("versions/2026-01-12")

    static func fresh(_ contracts: ContractSet, token: String, registered: [String: String] = [:]) -> FreshValues {
        let fields = FreshValues.uniqueFields(of: contracts)
        let all = Set(fields.values.joined())
        return FreshValues(unknownID: "00000000-0000-4000-8000-000000000000", unique: UniqueStandIns(fields: all, runToken: token),
                           run: UniqueStandIns(fields: all, runToken: "run"), registered: registered, fieldsByContract: fields, boundary: "0")
    }

    @Test func sameShapeKeepsLengthPaddingAndTheKindOfEachCharacter() {
        let standIns = UniqueStandIns(fields: ["email"], runToken: "t1")
        let email = standIns.sameShape("Owner.Name+tag@example.com")
        #expect(email.count == "Owner.Name+tag@example.com".count)
        #expect(email != "Owner.Name+tag@example.com")
        #expect(email.first?.isUppercase == true && email.split(separator: ".").count == 3)
        #expect(Array(email)[5] == "." && Array(email)[10] == "+" && Array(email)[14] == "@")
        // A long value stays exactly as long (a case at a length limit stays at it); a short digits-only one is lengthened.
        let long = String(repeating: "7", count: 300)
        #expect(standIns.sameShape(long).count == 300 && standIns.sameShape(long).allSatisfy(\.isNumber))
        #expect(standIns.sameShape("12").count == UniqueStandIns.shortestDigits)
        #expect(standIns.sameShape("ab1") != UniqueStandIns(fields: [], runToken: "t2").sameShape("ab1"))
        #expect(standIns.sameShape("  héllo  ").hasPrefix("  ") && standIns.sameShape("  héllo  ").contains("é"))
    }

    @Test func aSignOrPaddingAroundFewDigitsStillGetsAsManyDigitsAsAShortDigitString() {
        let standIns = UniqueStandIns(fields: ["microchipNumber"], runToken: "t1")
        for original in ["-1", " 7 ", "1.5", "\t0"] {
            let value = standIns.sameShape(original)
            #expect(value.count(where: \.isNumber) == UniqueStandIns.shortestDigits, "\(original) became \(value)")
            #expect(value.first == original.first && value.last?.isNumber == original.last?.isNumber, "\(original) became \(value)")
        }
        // A letter keeps the value as it is: its length may be what a rule is about.
        #expect(standIns.sameShape("a1").count == 2)
        #expect(standIns.sameShape("12", attempt: 1) != standIns.sameShape("12"))
    }

    @Test func theRunsCasesNeverMeetOnAValueByChanceAndACaseAlwaysGetsItsOwn() {
        // One letter between spaces has 26 values: drawn by token alone, 26 cases meet on one almost surely.
        let ledger = StandInLedger()
        var seen: Set<String> = []
        for index in 0..<26 {
            let standIns = UniqueStandIns(fields: ["tag"], runToken: "case-\(index)")
            let value = ledger.standIn(for: " a ", field: "tag", from: standIns)
            #expect(value.hasPrefix(" ") && value.hasSuffix(" ") && value.count == 3)
            #expect(seen.insert(StandInLedger.comparable(value)).inserted, "case \(index) met an earlier case on \(value)")
            // Every side renders the case again: the same value each time.
            #expect(ledger.standIn(for: " a ", field: "tag", from: standIns) == value)
        }
        // Addresses that differ only in the first domain label meet once the run's tag overwrites it.
        #expect(StandInLedger.comparable(" Q@xy.com ") == StandInLedger.comparable("q@ab.com"))
        #expect(StandInLedger.comparable("q@xy.com") != StandInLedger.comparable("r@xy.com"))
        // A shape with no room left repeats rather than failing.
        #expect(ledger.standIn(for: " a ", field: "tag", from: UniqueStandIns(fields: ["tag"], runToken: "case-26")).count == 3)
    }

    @Test func eachContractsOwnUniqueFieldsGetFreshValuesAndOthersAreLeftAlone() throws {
        let contracts = try ContractSet.load(from: Self.newest)
        let fresh = Self.fresh(contracts, token: "case-1")
        let announcement: JSONValue = ["microchipNumber": "123456789012345", "email": "owner@example.com"]
        let sent = fresh.withUniqueValues(announcement, contractID: "createAnnouncement")
        #expect(sent["microchipNumber"]?.stringValue != "123456789012345")
        #expect(sent["microchipNumber"]?.stringValue?.count == 15)
        // The announcement's contact email is not unique there, so it is sent as generated.
        #expect(sent["email"]?.stringValue == "owner@example.com")
        let registerID = try #require(contracts.contracts.first { contracts.state.declaration(for: $0.id)?.action == .create && $0.id != "createAnnouncement" }?.id)
        let user = fresh.withUniqueValues(["email": "owner@example.com", "password": "secret-password"], contractID: registerID)
        #expect(user["email"]?.stringValue != "owner@example.com")
        #expect(user["email"]?.stringValue?.count == "owner@example.com".count)
        #expect(user["password"]?.stringValue == "secret-password")
        // Another case gets other values.
        #expect(Self.fresh(contracts, token: "case-2").withUniqueValues(announcement, contractID: "createAnnouncement") != sent)
    }

    @Test func theDuplicateCasesUseTheRegisteredValueOrTheRunsOwn() throws {
        let contracts = try ContractSet.load(from: Self.newest)
        let generator = RequestGenerator(contracts: contracts, adminChecks: false)
        let duplicates = generator.bodies.flatMap { $0.model.duplicateCases() }
        let labels = duplicates.map(\.label)
        #expect(labels.contains("a microchipNumber the run registered already"), "\(labels)")
        #expect(labels.contains("a email the run registered already"), "\(labels)")
        #expect(labels.contains("a email the run registered already, in upper case"), "\(labels)")
        let fresh = Self.fresh(contracts, token: "case-3", registered: ["microchipNumber": "999000111222333"])
        for request in duplicates {
            guard case .json(let body) = request.body, let contractID = request.contractID else { continue }
            let sent = fresh.withUniqueValues(body, contractID: contractID)
            if let chip = body["microchipNumber"]?.stringValue, chip.hasPrefix(FreshValues.registeredMarker) {
                #expect(sent["microchipNumber"]?.stringValue == "999000111222333")
            }
            if let email = body["email"]?.stringValue, email.hasPrefix(FreshValues.registeredUpperMarker) {
                let plain = fresh.withUniqueValues(["email": .string(FreshValues.registeredMarker + email.dropFirst(FreshValues.registeredUpperMarker.count))],
                                                   contractID: contractID)
                #expect(sent["email"]?.stringValue == plain["email"]?.stringValue?.uppercased())
                // The run's own value, the same in every case (no slot registered a user).
                #expect(plain == Self.fresh(contracts, token: "case-4").withUniqueValues(
                    ["email": .string(FreshValues.registeredMarker + email.dropFirst(FreshValues.registeredUpperMarker.count))], contractID: contractID))
            }
        }
    }

    @Test func aContractWithoutUniqueFieldsGetsNoDuplicateCases() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-unique-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: ContractSet.bundledDirectory, to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("create-announcement.json")
        var contract = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var state = try #require(contract["x-state"] as? [String: Any])
        state["unique"] = nil
        contract["x-state"] = state
        try JSONSerialization.data(withJSONObject: contract, options: [.prettyPrinted]).write(to: file)
        let contracts = try ContractSet.load(from: folder)
        let generator = RequestGenerator(contracts: contracts, adminChecks: false)
        #expect(generator.bodies.flatMap { $0.model.duplicateCases() }.isEmpty)
        #expect(FreshValues.uniqueFields(of: contracts).isEmpty)
    }
}
