import ContractKit
import Foundation
import Testing

@testable import ClientDoubles
@testable import ScenarioEngine

/// When a client does not present a 2xx answer SpotCheck served, the report names that answer's unusual values, read
/// from the contract schemas, and where the client says its decoding failed.
@Suite struct UnreadAnswerTests {
    static let announcement = #"""
    {"id": "3c1d5e9f-4a61-4283-9d94-e0f1a2b3c404", "petName": "Luna", "species": "DOG", "breed": null, "sex": "FEMALE", "age": 4,
     "description": null, "microchipNumber": null, "locationLatitude": 52.2297, "locationLongitude": 21, "lastSeenDate": "2025-11-15",
     "email": null, "phone": "+48 501 222 333", "photoUrl": null, "status": "ACTIVE", "reward": null,
     "createdAt": "2025-11-15T10:00:00.000Z", "updatedAt": "2025-11-15T10:00:00.000Z"}
    """#

    @Test func theUnusualValuesComeFromTheSchema() throws {
        let contracts = try EngineTestSupport.contracts()
        let body = try JSONValue(parsing: Data(Self.announcement.utf8))
        let lines = UnusualValues(contracts: contracts).describe(body, rawText: Self.announcement, schema: ["$ref": "schemas/Announcement.json"])
        #expect(lines.contains("/status: \"ACTIVE\" (beyond the schema's enum: \"MISSING\", \"FOUND\")"), "\(lines)")
        #expect(lines.contains("/photoUrl: null (nullable in the schema)"))
        #expect(lines.contains("/email: null (nullable in the schema)"))
        #expect(!lines.contains { $0.hasPrefix("/phone") }, "a present phone is a common value")
        let numbers = try #require(lines.first { $0.hasPrefix("numbers as the backend wrote them") })
        #expect(numbers.contains("/locationLongitude 21 (a whole number in a decimal field)"), "\(numbers)")
        #expect(numbers.contains("/locationLatitude 52.2297,"))
        #expect(numbers.contains("/age 4"))
    }

    @Test func anAbsentOptionalKeyAndListItemsAreNamed() throws {
        let contracts = try EngineTestSupport.contracts()
        let values = UnusualValues(contracts: contracts)
        let optional: JSONValue = ["type": "object", "properties": ["nickname": ["type": "string"], "kind": ["type": "string"]], "required": ["kind"]]
        #expect(values.describe(["kind": "x"], rawText: #"{"kind": "x"}"#, schema: optional) == ["/nickname: absent (optional in the schema)"])
        // The list's items refine Announcement (allOf): a listed photoUrl is a string, so null there is not allowed.
        let list = "{\"data\": [\(Self.announcement)]}"
        let lines = values.describe(try JSONValue(parsing: Data(list.utf8)), rawText: list, schema: ["$ref": "schemas/AnnouncementList.json"])
        #expect(lines.contains("/data/0/status: \"ACTIVE\" (beyond the schema's enum: \"MISSING\", \"FOUND\")"), "\(lines)")
        #expect(lines.contains("/data/0/photoUrl: null (the schema does not allow null)"))
    }

    /// Decodes the details strictly: an ACTIVE status (shown as MISSING by the reference client) fails at `/status`.
    static func strictStatus(reportingPath: Bool) -> SeedReadingClients.Rewritten {
        SeedReadingClients.Rewritten(name: "strict status decoding") { action, observation in
            guard case .loadDetails = action, observation.details?.presentation["status"] == "MISSING" else { return observation }
            return ClientObservation(outcome: .failure, details: ObservedDetails(state: "error", message: "Unable to load pet details"),
                                     cause: ObservedCause(kind: .decoding, status: 200, detail: "unknown status", decodingPath: reportingPath ? "/status" : nil))
        }
    }

    @Test func theReportNamesTheUnreadAnswerAndTheDecodingPath() async throws {
        let r = try await BrokenClientTests.results(["details-active-shown-as-missing.json"], driver: Self.strictStatus(reportingPath: true))
        let result = try #require(r["details-active-shown-as-missing.json"])
        #expect(result.status == .failed)
        let message = BrokenClientTests.message(result)
        #expect(message.contains("the client did not present #1 GET /api/v1/announcements/3c1d5e9f-4a61-4283-9d94-e0f1a2b3c404 (getAnnouncement) → 200"), "\(message)")
        #expect(message.contains("/status: \"ACTIVE\" (beyond the schema's enum"), "\(message)")
        #expect(message.contains("/email: null (nullable in the schema)"), "\(message)")
        #expect(message.contains("the client says decoding failed at: /status"), "\(message)")
        #expect(result.failure?.unreadAnswer?.decodingPath == "/status")
        // `--json` carries the same: the answer's journal line, its unusual values and the path.
        let json = JSONReporter.failure(try #require(result.failure))
        #expect(json["unreadAnswer"]?["decodingPath"] == "/status")
        #expect(json["unreadAnswer"]?["unusualValues"]?.arrayValue?.contains("/email: null (nullable in the schema)") == true)
        // The headline stays the first expectation that failed; the answer's values come after the mismatches.
        #expect(result.failure?.headline.contains("outcome: expected success") == true, "\(result.failure?.headline ?? "")")
        #expect(result.failure?.mismatches.contains { $0.subject.contains("unusual") } == false)
    }

    @Test func withoutAPathTheReportSaysTheClientDidNotTell() async throws {
        let r = try await BrokenClientTests.results(["details-active-shown-as-missing.json"], driver: Self.strictStatus(reportingPath: false))
        let message = BrokenClientTests.message(r["details-active-shown-as-missing.json"])
        #expect(message.contains("the client did not say where decoding failed (protocol: cause.decodingPath)"), "\(message)")
    }

    @Test func aFailureATransportCauseExplainsNamesNoAnswer() async throws {
        let r = try await BrokenClientTests.results(["fault-step2-500.json", "happy-path.json"], driver: BrokenClients.NavigatesAwayOnFailure())
        #expect(r["fault-step2-500.json"]?.failure?.unreadAnswer == nil)
    }

    @Test func theProtocolCarriesTheDecodingPath() throws {
        let line = #"{"id": 3, "outcome": "failure", "cause": {"kind": "decoding", "status": 200, "decodingPath": "/data/0/photoUrl"}}"#
        let cause = try WireProtocol.cause(from: try #require(try JSONValue(parsing: Data(line.utf8))["cause"]), line: line)
        #expect(cause.decodingPath == "/data/0/photoUrl")
        #expect(cause.wireValue["decodingPath"] == "/data/0/photoUrl")
    }
}

/// The reference external client fills `cause.decodingPath` when it cannot read a details answer.
@Suite struct ExternalDecodingPathTests {
    @Test func spotcheckClientReportsWhereDecodingFailed() async throws {
        let scenario = try EngineTestSupport.parse(#"""
        {"name": "unreadable details", "summary": "s", "report": "default", "backend": {"fixtures": "pets.json"},
         "faults": [{"contract": "getAnnouncement", "calls": [1], "fault": {"kind": "malformed", "body": "{\"id\": 7}"}}],
         "steps": [{"action": "loadDetails", "id": "3c1d5e9f-4a61-4283-9d94-e0f1a2b3c404", "expect": {"outcome": "failure"}}]}
        """#)
        let target = try await EmbeddedBackendProvider(contracts: try EngineTestSupport.contracts()).makeTarget(for: scenario, seed: 1)
        let client = try LibraryRunTests.builtClient()
        let context = ClientContext(baseURL: target.baseURL, settings: scenario.client, report: scenario.report, scenarioName: scenario.name)
        do {
            let session = try await ProcessDriver(command: "'\(client.path)'").open(context)
            let observation = try await session.perform(.loadDetails(id: "3c1d5e9f-4a61-4283-9d94-e0f1a2b3c404"))
            await session.close()
            #expect(observation.details?.state == "error")
            #expect(observation.cause?.kind == .decoding)
            #expect(observation.cause?.decodingPath == "/id", "\(String(describing: observation.cause))")
        } catch {
            Issue.record("\(error)")
        }
        await target.shutdown()
    }
}
