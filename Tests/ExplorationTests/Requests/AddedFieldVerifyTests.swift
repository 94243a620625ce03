import ContractKit
import Foundation
import Logging
@testable import ContractModel
@testable import MockBackend
import NIOCore
import Testing
@testable import Exploration

/// `verify` compares what the contracts declare, a field added to them included: on a copy of the contract folder with
/// `collarColor` added to the create request and the stored schemas, a server that drops it is caught.
@Suite struct AddedFieldVerifyTests {
    static let seed: UInt64 = 36

    /// The bundled contracts copied with `collarColor` (`string`, `maxLength` 20) in the create body and the stored schemas.
    static func contractsWithCollarColor() throws -> (ContractSet, URL) {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("collar-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: ContractSet.bundledDirectory, to: copy)
        func edit(_ file: String, _ change: (inout JSONObject) -> Void) throws {
            let url = copy.appendingPathComponent(file)
            var object = try JSONValue(parsing: Data(contentsOf: url)).objectValue ?? JSONObject()
            var properties = object["properties"]?.objectValue ?? JSONObject()
            change(&properties)
            object["properties"] = .object(properties)
            try JSONValue.object(object).data(pretty: true).write(to: url)
        }
        try edit("schemas/CreateAnnouncementRequest.json") { $0["collarColor"] = ["type": "string", "maxLength": 20, "x-errors": [
            "type": ["code": "INVALID_FORMAT", "message": "Expected string, received {received}", "field": "{field}"],
            "maxLength": ["code": "INVALID_FORMAT", "message": "collarColor is too long", "field": "{field}"]]] }
        try edit("schemas/Announcement.json") { $0["collarColor"] = ["type": ["string", "null"]] }
        try edit("schemas/AnnouncementWithPassword.json") { properties in
            let password = properties["managementPassword"]
            properties["managementPassword"] = nil
            properties["collarColor"] = ["type": ["string", "null"]]
            properties["managementPassword"] = password
        }
        return (try ContractSet.load(from: copy), copy)
    }

    /// The mock of `contracts` with every JSON answer's `collarColor` removed: a backend that forgot the new column.
    struct DroppingResponder: MockResponder {
        let base: ModelBackend
        /// Off: the faithful mock of the same contracts, the control.
        let drops: Bool

        func respond(to request: MockRequest) async -> MockResponse {
            let response = await base.respond(to: request)
            return drops ? DriftResponder.rewriteJSON(response) { Self.drop($0) } : response
        }

        static func drop(_ value: JSONValue) -> JSONValue {
            switch value {
            case .object(let object): return .object(JSONObject(object.compactMap { $0.key == "collarColor" ? nil : ($0.key, drop($0.value)) }))
            case .array(let items): return .array(items.map(drop))
            default: return value
            }
        }

        func bodyLimit(for head: MockRequest) -> Int { base.bodyLimit(for: head) }
        func respondToOversizedBody(_ head: MockRequest) async -> MockResponse { await base.respondToOversizedBody(head) }
    }

    @Test(arguments: [true, false])
    func aServerThatDropsTheAddedFieldIsCaught(drops: Bool) async throws {
        let (contracts, copy) = try Self.contractsWithCollarColor()
        defer { try? FileManager.default.removeItem(at: copy) }
        var logger = Logger(label: "test.added-field")
        logger.logLevel = .critical
        let backend = try ModelBackend(configuration: .init(contracts: contracts, adminToken: "tajnehasloadmina", checkResponses: false), logger: logger)
        let server = MockServer(configuration: ServerConfiguration(logger: logger, quiet: true), responder: DroppingResponder(base: backend, drops: drops),
                                faults: FaultLayer(), journal: Journal(), admin: nil, contractID: { _, _ in nil })
        let address = try await server.start()
        var options = RequestExplorer.Options(seed: Self.seed)
        options.adminToken = "tajnehasloadmina"
        options.cases = 150
        options.timeout = .seconds(120)
        print("AddedFieldVerifyTests seed \(Self.seed)")
        let outcome = await ExplorationSlots.shared.run { await RequestExplorer(contracts: contracts, target: address.baseURL, options: options).explore() }
        try await server.shutdown()
        #expect(outcome.setupFailure == nil)
        let headlines = outcome.groups.map(\.headline)
        // The faithful mock of the same folder differs in nothing about the new field.
        #expect(headlines.contains { $0.contains("collarColor") } == drops, "\(headlines)")
    }
}
