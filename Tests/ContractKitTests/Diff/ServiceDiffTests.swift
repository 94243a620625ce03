import Foundation
import Testing
@testable import ContractKit

/// `diff` compares what a folder states outside its contracts: `service.json` (headers on every answer, routing, the
/// answers no contract owns, the body parser) and the `x-also-at` mounts.
@Suite struct ServiceDiffTests {
    static let bundled = ContractSet.bundledDirectory
    static let newer = ContractSet.bundledDirectory.appendingPathComponent("versions/2026-01-12")

    func serviceAndMountChanges(_ changes: [ContractChange]) -> [ContractChange] {
        let kinds: Set<ContractChange.Kind> = [.routeRemoved, .routeAdded]
        return changes.filter { $0.contract == ContractDiff.serviceSubject || kinds.contains($0.kind) }
    }

    @Test func aFolderComparedWithItselfHasNoServiceOrMountChange() throws {
        let set = try ContractSet.load(from: Self.bundled)
        #expect(ContractDiff.compare(old: set, new: set).isEmpty)
    }

    @Test func theNewerBackendCutsTheAdminMountToDelete() throws {
        let changes = ContractDiff.compare(old: try ContractSet.load(from: Self.bundled), new: try ContractSet.load(from: Self.newer))
        let removed = changes.filter { $0.kind == .routeRemoved }
        #expect(removed.allSatisfy { $0.severity == .breaking })
        #expect(removed.map(\.contract).sorted() == ["createAnnouncement", "getAnnouncement", "listAnnouncements", "uploadPhoto"])
        let text = removed.map(\.description).joined(separator: "\n")
        #expect(text.contains("POST /api/admin/v1/announcements no longer answers"))
        #expect(text.contains("GET /api/admin/v1/announcements no longer answers"))
        #expect(text.contains("GET /api/admin/v1/announcements/{id} no longer answers"))
        #expect(text.contains("POST /api/admin/v1/announcements/{id}/photos no longer answers"))
        // The old file holds the entry, so a CI report can point at its line.
        #expect(removed.allSatisfy { $0.pointer == "/x-also-at/0" && !$0.file.contains("versions") })
        // The admin DELETE has its own contract in both versions: not a change.
        #expect(!text.contains("DELETE"))
    }

    @Test func theNewerBackendsHeadersOnEveryAnswerAreListed() throws {
        let changes = ContractDiff.compare(old: try ContractSet.load(from: Self.bundled), new: try ContractSet.load(from: Self.newer))
        let service = changes.filter { $0.contract == ContractDiff.serviceSubject }
        let lost = try #require(service.first { $0.kind == .headerRemoved })
        #expect(lost.severity == .breaking)
        #expect(lost.message == "every answer no longer carries the header X-Powered-By: Express")
        #expect(lost.file.hasSuffix("versions/2026-01-12/service.json"))
        let gained = service.filter { $0.kind == .headerAdded }
        #expect(gained.count == 10)
        #expect(gained.allSatisfy { $0.severity == .compatible && $0.pointer.hasPrefix("/headers/") })
        #expect(gained.contains { $0.message == "every answer gained the header X-Content-Type-Options: nosniff" })
        // The preflight keeps its headers; nothing else of service.json differs.
        #expect(service.count == 11)
    }

    @Test func eachServiceKeyIsClassifiedForAnOldClient() throws {
        let copy = try ContractsCopy()
        defer { copy.remove() }
        try copy.edit("service.json") { service in
            service.set("/headers/Access-Control-Allow-Origin", "https://petspot.example")
            service.set("/routing/caseInsensitive", false)
            service.set("/routing/headAsGet", false)
            service.set("/notFound/message", "Not here")
            service.set("/bodyParser/limitBytes", 51200)
            service.set("/preflight/enabled", false)
            service.set("/etag", nil)
            service.set("/errorEnvelope/members", ["code", "message", "field"])
        }
        let changes = ContractDiff.compare(old: try ContractSet.load(from: Self.bundled), new: try copy.load())
        func change(_ pointer: String) -> ContractChange? { changes.first { $0.pointer == pointer } }
        #expect(change("/headers/Access-Control-Allow-Origin")?.kind == .headerChanged)
        #expect(change("/headers/Access-Control-Allow-Origin")?.severity == .breaking)
        #expect(change("/routing/caseInsensitive")?.kind == .routingTightened)
        #expect(change("/routing/caseInsensitive")?.severity == .breaking)
        #expect(change("/routing/headAsGet")?.message == "no longer: HEAD is answered by the GET endpoint of its path")
        #expect(change("/notFound")?.message == #"the not-found answer is 404 NOT_FOUND, "Not here" (was 404 NOT_FOUND, "Resource not found")"#)
        #expect(change("/notFound")?.severity == .breaking)
        #expect(change("/bodyParser/limitBytes")?.kind == .limitTightened)
        #expect(change("/preflight/enabled")?.severity == .breaking)
        #expect(change("/etag")?.kind == .headerRemoved)
        #expect(change("/errorEnvelope/members")?.message == "error answers no longer carry requestId")
        #expect(changes.count == 8)
        // The reverse: the routing rules switched on again match more requests.
        let reverse = ContractDiff.compare(old: try copy.load(), new: try ContractSet.load(from: Self.bundled))
        #expect(reverse.first { $0.pointer == "/routing/caseInsensitive" }?.kind == .routingLoosened)
        #expect(reverse.first { $0.pointer == "/routing/caseInsensitive" }?.severity == .compatible)
    }

    @Test func aLooserServiceIsCompatible() throws {
        let copy = try ContractsCopy()
        defer { copy.remove() }
        try copy.edit("service.json") { service in
            service.set("/bodyParser/limitBytes", 204800)
            service.set("/headers/X-Request-Start", "now")
        }
        let changes = ContractDiff.compare(old: try ContractSet.load(from: Self.bundled), new: try copy.load())
        #expect(changes.count == 2)
        #expect(changes.allSatisfy { $0.severity == .compatible })
        // The reverse: a lower limit and a lost header break.
        let reverse = ContractDiff.compare(old: try copy.load(), new: try ContractSet.load(from: Self.bundled))
        #expect(reverse.contains { $0.kind == .limitTightened && $0.pointer == "/bodyParser/limitBytes" && $0.severity == .breaking })
        #expect(reverse.contains { $0.kind == .headerRemoved && $0.message.contains("X-Request-Start") })
    }

    @Test func aNewMountIsCompatible() throws {
        let copy = try ContractsCopy()
        defer { copy.remove() }
        try copy.edit("get-announcement.json") { contract in
            contract.set("/x-also-at/1", "/api/v2/announcements/{id}")
        }
        let changes = ContractDiff.compare(old: try ContractSet.load(from: Self.bundled), new: try copy.load())
        let added = try #require(changes.first)
        #expect(changes.count == 1)
        #expect(added.kind == .routeAdded && added.severity == .compatible)
        #expect(added.message == "GET /api/v2/announcements/{id} now reaches getAnnouncement (x-also-at)")
        #expect(added.pointer == "/x-also-at/1")
    }
}
