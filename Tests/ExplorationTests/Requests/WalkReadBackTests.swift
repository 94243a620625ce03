import ContractKit
import Foundation
import MockBackend
import NIOCore
import NIOHTTP1
import Testing

@testable import Exploration

/// Read after every write (issue 42, point 3): a walk step that created or changed a record is followed by each read of
/// it and each list holding it, plain and centred on the record, compared with the model.
@Suite struct WalkReadBackTests {
    static func operations(_ contracts: ContractSet) -> WalkRunner {
        let generator = RequestGenerator(contracts: contracts, adminChecks: true)
        return WalkRunner(operations: WalkOperations(contracts: contracts, bodies: generator.bodies), contracts: contracts, adminChecks: true)
    }

    @Test func aCreateIsReadBackAndListedPlainAndAroundItsOwnPosition() throws {
        let contracts = try ContractSet.load(from: ContractSet.bundledDirectory)
        let runner = Self.operations(contracts)
        var record = WalkState.Record(name: 0, collection: "announcements", body: ["locationLatitude": 52.2297, "locationLongitude": 21.0122])
        record.slot = 3
        let reads = runner.readsAfter(WalkStep(contractID: "createAnnouncement", kind: .create(.fresh), name: 0), record: record)
        #expect(reads.map(\.contractID) == ["getAnnouncement", "listAnnouncements", "listAnnouncements"])
        #expect(reads.first?.path == "/api/v1/announcements/{slot3}")
        // No step named: a difference keeps its signature while the walk before it shrinks.
        #expect(reads.map(\.label) == ["read the record back", "the list", "the list around the record"])
        #expect(reads[1].query.isEmpty)
        // 0.1 km north of the record: on it, SQLite's arithmetic drops the record itself (NaN) for this very position.
        #expect(reads[2].query.map { "\($0.name)=\($0.value)" } == ["lat=52.230599", "lng=21.012200", "range=5"], "\(reads[2].query)")
        // A read, a refused or deleted record: nothing to read back.
        #expect(runner.readsAfter(WalkStep(contractID: "getAnnouncement", kind: .read(record: 0), name: 1), record: record).isEmpty)
        record.deleted = true
        #expect(runner.readsAfter(WalkStep(contractID: "uploadPhoto", kind: .attach(record: 0, secretOf: 0), name: 2), record: record).isEmpty)
        record.deleted = false
        record.slot = nil
        #expect(runner.readsAfter(WalkStep(contractID: "createAnnouncement", kind: .create(.fresh), name: 0), record: record).isEmpty)
    }

    @Test func aListInAnotherOrderUnderALocationQueryIsFoundAfterAWrite() async throws {
        let outcome = try await RequestExplorerTests.explore(bend: { request, response in
            guard WalkTests.isList(request), request.uri.contains("lat=") else { return response }
            return ChangedServer.rewrite(response) { body in
                guard var object = body.objectValue, let items = object["data"]?.arrayValue else { return body }
                object["data"] = .array(items.reversed())
                return .object(object)
            }
        })
        let afterWrite = RequestExplorerTests.failing(outcome).filter { group in
            !group.walk.isEmpty && group.differences.contains { $0.aspect.hasPrefix("after the write, the list around") }
        }
        #expect(!afterWrite.isEmpty, "\(RequestExplorerTests.failing(outcome).map(\.headline))")
        // Grouped under the list that differed, and the walk shows that read as its end.
        #expect(afterWrite.allSatisfy { $0.route == "listAnnouncements" && $0.walk.last?.hasPrefix("then the list around the record") == true },
                "\(afterWrite.map { ($0.route, $0.walk.last ?? "") })")
    }
}
