import ContractKit
import Foundation
import ContractModel
import MockBackend
import NIOCore
import NIOHTTP1
import Testing
@testable import Exploration

/// A walk `verify` found saves as a file that replays it: the steps survive the file unchanged, a broken file is refused
/// with the file and the JSON pointer, and the replayed walk differs on the same server again.
@Suite struct WalkCaseTests {
    static let steps = [
        WalkStep(contractID: "createAnnouncement", kind: .create(.fresh), name: 0),
        WalkStep(contractID: "uploadPhoto", kind: .attach(record: 0, secretOf: 0), name: 1),
        WalkStep(contractID: "deleteAnnouncement", kind: .delete(record: 0), name: 2),
        WalkStep(contractID: "createAnnouncement", kind: .create(.reuse(record: 0, upperCase: true)), name: 4),
        WalkStep(contractID: "listAnnouncements", kind: .list, name: 5),
        WalkStep(contractID: "getAnnouncement", kind: .read(record: 4), name: 6),
        WalkStep(contractID: "loginUser", kind: .authenticate(record: 4, .keyPadded), name: 7),
    ]

    @Test func everyKindOfStepSurvivesTheFile() throws {
        let walk = WalkCase(route: "loginUser", seed: UInt64.max, model: "200", server: "401 UNAUTHORIZED", steps: Self.steps)
        let read = try WalkCase.parse(walk.encoded(), file: "walk.json")
        #expect(read == walk)
        #expect(read.seed == UInt64.max, "a seed past 2^53 keeps every digit")
        #expect(walk.fileName(number: 2) == "walk-loginUser-2.json")
        #expect(WalkCase(route: "GET /a/{id}", seed: 1, model: "", server: "", steps: Self.steps).fileName(number: 1) == "walk-GET--a--id--1.json")
    }

    @Test(arguments: [
        (#"[]"#, "walk.json: expected a JSON object"),
        (#"{"spotcheckWalk": 2}"#, "walk.json at /spotcheckWalk: expected 1"),
        (#"{"spotcheckWalk": 1, "seed": 7}"#, "walk.json at /seed: expected a string"),
        (#"{"spotcheckWalk": 1, "seed": "-1"}"#, "walk.json at /seed: expected a whole number"),
        (#"{"spotcheckWalk": 1, "seed": "1", "steps": []}"#, "walk.json at /steps: expected a non-empty array"),
        (#"{"spotcheckWalk": 1, "seed": "1", "steps": [{"step": 0, "contract": "c", "do": "jump"}]}"#, "walk.json at /steps/0/do: expected create, read"),
        (#"{"spotcheckWalk": 1, "seed": "1", "steps": [{"step": 0, "contract": "c", "do": "read"}]}"#, "walk.json at /steps/0/record: expected the number"),
        (#"{"spotcheckWalk": 1, "seed": "1", "steps": [{"step": 0, "contract": "c", "do": "list"}, {"step": 0, "contract": "c", "do": "list"}]}"#,
         "walk.json at /steps/1/step: step 0 appears twice"),
        (#"{"spotcheckWalk": 1, "seed": "1", "steps": [{"step": 0, "do": "list"}]}"#, "walk.json at /steps/0/contract: expected the contract id"),
        (#"{"spotcheckWalk": 1, "seed": "1", "steps": [{"step": 0, "contract": "c", "do": "authenticate", "record": 0, "presentation": "x"}]}"#,
         "walk.json at /steps/0/presentation: expected one of"),
        (#"{"spotcheckWalk": 1, "seed": "1", "steps": [{"step": 0, "contract": "c", "do": "list"}]}"#, "walk.json at /route: expected a string"),
        ("{", "walk.json: is not JSON"),
    ])
    func aBrokenFileIsRefusedWithItsPointer(_ text: String, _ expected: String) {
        #expect(throws: WalkCaseError.self) { try WalkCase.parse(Data(text.utf8), file: "walk.json") }
        do {
            _ = try WalkCase.parse(Data(text.utf8), file: "walk.json")
        } catch {
            #expect(error.description.hasPrefix(expected), "\(error.description)")
        }
    }

    @Test func aSavedWalkReplaysTheSameDifference() async throws {
        let server = try await ChangedServer.start(bend: WalkTests.answeringASecondDeleteAsTheFirst())
        var options = RequestExplorer.Options(seed: RequestExplorerTests.seed)
        options.adminToken = "tajnehasloadmina"
        options.timeout = .seconds(120)
        let contracts = try RequestExplorerTests.contracts.get()
        let found = await ExplorationSlots.shared.run { await RequestExplorer(contracts: contracts, target: server.baseURL, options: options).explore() }
        let walk = try #require(RequestExplorerTests.failing(found).compactMap(\.walkCase).first, "\(found.groups.map(\.headline))")
        // Through the file, as `verify --save-walks` and `--replay-walk` pass it.
        options.replayWalk = try WalkCase.parse(walk.encoded(), file: "saved.json")
        let replaying = options
        let replayed = await ExplorationSlots.shared.run { await RequestExplorer(contracts: contracts, target: server.baseURL, options: replaying).explore() }
        // The same walk on a faithful server differs in nothing.
        let mock = try await ContractMock.start(.init(contracts: contracts, quiet: true))
        let clean = await ExplorationSlots.shared.run { await RequestExplorer(contracts: contracts, target: mock.baseURL, options: replaying).explore() }
        try await mock.shutdown()
        try await server.shutdown()
        let again = try #require(RequestExplorerTests.failing(replayed).first, "the replay differs in nothing")
        #expect(again.walk == walk.stepLines)
        #expect(again.server == walk.server && again.model == walk.model)
        #expect(replayed.casesSent == walk.stepLines.count, "a replay sends only the walk")
        #expect(clean.groups.isEmpty, "\(clean.groups.map(\.headline))")
    }
}
