import Foundation
import Testing
@testable import ContractKit

/// One test per change class of `spotcheck diff`, each on an edited copy of the bundled contracts.
@Suite struct ContractDiffTests {
    /// The indices of create's 201 examples (the first response), whichever examples the bundled contract holds.
    static func createdExamples(_ contract: JSONValue) -> Range<Int> {
        0..<(contract["responses"]?.arrayValue?.first?["examples"]?.arrayValue?.count ?? 0)
    }

    /// The changes from the bundled contracts to a copy edited by `edit`.
    func changes(_ edit: (ContractsCopy) throws -> Void) throws -> [ContractChange] {
        let copy = try ContractsCopy()
        defer { copy.remove() }
        try edit(copy)
        return ContractDiff.compare(old: try ContractSet.load(from: ContractSet.bundledDirectory), new: try copy.load())
    }

    func summary(_ changes: [ContractChange]) -> [String] {
        changes.map { "\($0.severity.rawValue) \($0.kind.rawValue) \($0.contract) \($0.pointer)" }
    }

    @Test func identicalContractsHaveNoChanges() throws {
        #expect(try changes { _ in } == [])
    }

    @Test func petSpotMoveToBearerTokensIsBreaking() throws {
        let found = try changes { copy in
            for file in ["upload-photo.json", "create-announcement.json"] {
                try copy.edit(file) {
                    $0.set("/request/auth", ["scheme": "bearer", "header": "Authorization", "credentials": "{token}"])
                    // The upload's x-state opens the record with the Basic password, which a bearer scheme no longer sends.
                    $0.set("/x-state", nil)
                }
            }
        }
        #expect(summary(found) == [
            "breaking authAdded createAnnouncement /request/auth",
            "breaking authChanged uploadPhoto /request/auth/scheme",
        ])
        #expect(found.last?.message == "the auth scheme changed from Basic to Bearer")
    }

    @Test func endpointRemovedIsBreaking() throws {
        let found = try changes { try $0.delete("health.json") }
        #expect(summary(found) == ["breaking endpointRemoved health "])
        #expect(found.first?.message == "the endpoint GET /api/health was removed")
    }

    @Test func endpointAddedIsCompatible() throws {
        let found = try changes { copy in
            var health = try JSONValue(parsing: Data(contentsOf: copy.url.appendingPathComponent("health.json")))
            health.set("/id", "version")
            health.set("/path", "/api/version")
            try health.data().write(to: copy.url.appendingPathComponent("version.json"))
        }
        #expect(summary(found) == ["compatible endpointAdded version "])
    }

    @Test func statusRemovedIsBreakingAndAddedIsCompatible() throws {
        // The read's x-state answers the 404 it removes, so the declaration goes too (lint wants declared answers documented).
        let removed = try changes { try $0.edit("get-announcement.json") { $0.set("/responses/1", nil); $0.set("/x-state", nil) } }
        #expect(summary(removed) == ["breaking statusRemoved getAnnouncement /responses"])
        #expect(removed.first?.message.hasPrefix("the response 404 NOT_FOUND") == true)
        let added = try changes { copy in
            try copy.edit("health.json") { health in
                var unavailable = health["responses"]?.arrayValue?.first ?? nil
                unavailable.set("/status", 503)
                unavailable.set("/code", "UNAVAILABLE")
                unavailable.set("/body", ["$ref": "schemas/ErrorEnvelope.json"])
                unavailable.set("/examples/0/body", ["error": ["requestId": "a1B2c3D4e5", "code": "UNAVAILABLE", "message": "down"]])
                health.set("/responses/1", unavailable)
            }
        }
        #expect(summary(added) == ["compatible statusAdded health /responses/1"])
    }

    @Test func successStatusChangedIsBreaking() throws {
        let found = try changes { copy in
            try copy.edit("upload-photo.json") { $0.set("/responses/0/status", 200) }
        }
        #expect(summary(found) == ["breaking successStatusChanged uploadPhoto /responses/0/status"])
        #expect(found.first?.message == "the success status changed from 201 to 200")
    }

    @Test func responseFieldRemovedIsBreaking() throws {
        let found = try changes { copy in
            try copy.edit("schemas/AnnouncementWithPassword.json") { schema in
                schema.set("/properties/managementPassword", nil)
                let required = (schema["required"]?.arrayValue ?? []).filter { $0 != "managementPassword" }
                schema.set("/required", .array(required))
            }
            try copy.edit("create-announcement.json") { contract in
                for i in Self.createdExamples(contract) { contract.set("/responses/0/examples/\(i)/body/managementPassword", nil) }
            }
        }
        #expect(summary(found) == ["breaking responseFieldRemoved createAnnouncement /responses/0/body/properties/managementPassword"])
    }

    @Test func responseFieldMadeNullableOrOptionalIsBreaking() throws {
        let nullable = try changes { copy in
            try copy.edit("schemas/Announcement.json") { $0.set("/properties/species/type", ["string", "null"]) }
        }
        // Announcement is used by get, list (and, through AnnouncementWithPassword, create).
        #expect(nullable.allSatisfy { $0.kind == .responseFieldNullable && $0.severity == .breaking })
        #expect(Set(nullable.map(\.contract)) == ["createAnnouncement", "getAnnouncement", "listAnnouncements"])
        #expect(nullable.contains { $0.contract == "getAnnouncement" && $0.pointer == "/responses/0/body/properties/species/type" })
        #expect(nullable.contains { $0.contract == "listAnnouncements" && $0.pointer == "/responses/0/body/properties/data/items/properties/species/type" })
        let optional = try changes { copy in
            try copy.edit("schemas/Announcement.json") { schema in
                schema.set("/required", .array((schema["required"]?.arrayValue ?? []).filter { $0 != "reward" }))
            }
        }
        #expect(optional.contains { $0.kind == .responseFieldOptional && $0.severity == .breaking && $0.contract == "getAnnouncement" })
    }

    @Test func responseFieldAddedIsCompatible() throws {
        let found = try changes { copy in
            try copy.edit("health.json") { $0.set("/responses/0/body/properties/version", ["type": "string"]) }
        }
        #expect(summary(found) == ["compatible responseFieldAdded health /responses/0/body/properties/version"])
    }

    @Test func typeChangedIsBreaking() throws {
        let response = try changes { copy in
            // integer → number: a client decoding an Int may now get 2.5.
            try copy.edit("schemas/Announcement.json") { $0.set("/properties/age/type", ["number", "null"]) }
        }
        #expect(response.contains { $0.kind == .typeChanged && $0.severity == .breaking && $0.pointer == "/responses/0/body/properties/age/type" })
        let request = try changes { copy in
            try copy.edit("list-announcements.json") { $0.set("/request/query/range/schema/type", "string") }
        }
        #expect(summary(request).contains("breaking typeChanged listAnnouncements /request/query/range/schema/type"))
    }

    @Test func requestFieldAddedRequiredIsBreakingOptionalIsCompatible() throws {
        let required = try changes { copy in
            try copy.edit("schemas/CreateAnnouncementRequest.json") { schema in
                schema.set("/properties/ownerName", ["type": "string"])
                schema.set("/required", .array((schema["required"]?.arrayValue ?? []) + ["ownerName"]))
            }
            try copy.edit("create-announcement.json") { contract in
                for example in ["/request/examples/0", "/request/examples/1"] + Self.createdExamples(contract).map({ "/responses/0/examples/\($0)/request" }) {
                    contract.set(example + "/body/ownerName", "Ann")
                }
            }
        }
        #expect(summary(required) == ["breaking requestFieldAddedRequired createAnnouncement /request/body/properties/ownerName"])
        let optional = try changes { copy in
            try copy.edit("schemas/CreateAnnouncementRequest.json") { $0.set("/properties/ownerName", ["type": "string"]) }
        }
        #expect(summary(optional) == ["compatible requestFieldAddedOptional createAnnouncement /request/body/properties/ownerName"])
    }

    @Test func requestFieldMadeRequiredIsBreaking() throws {
        let found = try changes { copy in
            try copy.edit("schemas/CreateAnnouncementRequest.json") { schema in
                schema.set("/required", .array((schema["required"]?.arrayValue ?? []) + ["petName"]))
            }
            try copy.edit("create-announcement.json") { contract in
                contract.set("/request/examples/1/body/petName", "Tom")
                for i in Self.createdExamples(contract).dropFirst() { contract.set("/responses/0/examples/\(i)/request/body/petName", "Tom") }
            }
        }
        #expect(summary(found) == ["breaking requestFieldMadeRequired createAnnouncement /request/body/properties/petName"])
    }

    @Test func enumNarrowedIsBreakingInRequests() throws {
        let narrowed = try changes { copy in
            try copy.edit("schemas/CreateAnnouncementRequest.json") { $0.set("/properties/status/enum", ["MISSING"]) }
            try copy.edit("create-announcement.json") { contract in
                contract.set("/request/examples/1/body/status", "MISSING")
                for i in Self.createdExamples(contract).dropFirst() { contract.set("/responses/0/examples/\(i)/request/body/status", "MISSING") }
            }
        }
        #expect(summary(narrowed) == ["breaking enumNarrowed createAnnouncement /request/body/properties/status/enum"])
        #expect(narrowed.first?.message == #"the request field status no longer allows "FOUND""#)
        let widened = try changes { copy in
            try copy.edit("schemas/CreateAnnouncementRequest.json") { $0.set("/properties/status/enum", ["MISSING", "FOUND", "CLOSED"]) }
        }
        #expect(summary(widened) == ["compatible enumWidened createAnnouncement /request/body/properties/status/enum"])
    }

    @Test func enumWidenedIsBreakingInResponses() throws {
        let found = try changes { copy in
            try copy.edit("schemas/Announcement.json") { $0.set("/properties/status/enum", ["MISSING", "FOUND", "ACTIVE"]) }
        }
        #expect(found.contains { $0.kind == .enumWidened && $0.severity == .breaking && $0.contract == "getAnnouncement" })
        #expect(found.allSatisfy { $0.severity == .breaking })
    }

    @Test func limitTightenedIsBreakingWidenedIsCompatible() throws {
        let tightened = try changes { copy in
            try copy.edit("create-announcement.json") { $0.set("/request/maxBodyBytes", 51200) }
            try copy.edit("schemas/CreateAnnouncementRequest.json") { $0.set("/properties/description/maxLength", 500) }
        }
        #expect(summary(tightened) == [
            "breaking limitTightened createAnnouncement /request/maxBodyBytes",
            "breaking limitTightened createAnnouncement /request/body/properties/description/maxLength",
        ])
        let widened = try changes { copy in
            try copy.edit("upload-photo.json") { $0.set("/request/maxFileBytes", 31457280) }
        }
        #expect(summary(widened) == ["compatible limitWidened uploadPhoto /request/maxFileBytes"])
        #expect(widened.first?.message == "the file size limit (maxFileBytes) widened from 20971520 to 31457280 bytes")
    }

    @Test func requiredResponseHeaderRemovedIsBreaking() throws {
        let found = try changes { copy in
            try copy.edit("health.json") { contract in
                contract.set("/responses/0/headers/request-id", nil)
                contract.set("/responses/0/examples/0/headers", nil)
            }
        }
        #expect(summary(found) == ["breaking headerRemoved health /responses/0/headers/request-id"])
    }

    @Test func renamedContractIsNotARemoval() throws {
        let found = try changes { try $0.edit("health.json") { $0.set("/id", "healthCheck") } }
        #expect(summary(found) == ["compatible contractRenamed healthCheck /id"])
    }

    @Test func breakingChangesComeFirst() throws {
        let found = try changes { copy in
            try copy.edit("health.json") { $0.set("/responses/0/body/properties/version", ["type": "string"]) }
            try copy.delete("delete-announcement.json")
        }
        #expect(found.map(\.severity) == [.breaking, .compatible])
    }
}
