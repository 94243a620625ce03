import ContractKit
import Testing

/// One place turns a `$ref` into a shared schema (issue 44, point 3).
@Suite struct ContractSetReferenceTests {
    @Test func aReferenceNamesItsSharedSchemaWithOrWithoutAFragment() {
        #expect(ContractSet.sharedSchemaName(of: "../schemas/Announcement.json") == "Announcement")
        #expect(ContractSet.sharedSchemaName(of: "../schemas/Announcement.json#/properties/id") == "Announcement")
        #expect(ContractSet.sharedSchemaName(of: "Error") == "Error")
    }

    @Test func aReferenceIsFollowedIntoTheBundledSchemas() throws {
        let contracts = try ContractSet.load(from: ContractSet.bundledDirectory)
        guard let name = contracts.schemas.keys.sorted().first, let document = contracts.schema(named: name) else {
            Issue.record("the bundled contracts have no shared schema")
            return
        }
        #expect(contracts.referencedSchema("../schemas/\(name).json") == document)
        #expect(contracts.followingReference(["$ref": .string("../schemas/\(name).json")]) == document)
        #expect(contracts.referencedSchema("../schemas/NoSuchSchema.json") == nil)
        let plain: JSONValue = ["type": "string"]
        #expect(contracts.followingReference(plain) == plain)
    }
}

/// Requests are chosen from the contracts in their order, not from a dictionary's (issue 42: a recording and its
/// replay run in two processes, whose dictionaries iterate differently).
@Suite struct ContractSetActionOrderTests {
    @Test func theContractsDoingAnActionComeInContractOrder() throws {
        let newer = try ContractSet.load(from: ContractSet.bundledDirectory.appendingPathComponent("versions/2026-01-12"))
        let creates = newer.contracts(doing: .create).map(\.id)
        #expect(creates == ["createAnnouncement", "registerUser"], "\(creates)")
        let order = newer.contracts.map(\.id)
        #expect(creates == order.filter(creates.contains), "contract order: \(order)")
        #expect(newer.contracts(doing: .read).map(\.id).contains("getAnnouncement"))
    }
}
