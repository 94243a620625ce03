import ContractKit
import Foundation
import HTTPArchive
import ContractModel
import MockBackend
import PetSpotClient
import Testing

@testable import ClientDoubles
@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// `spotcheck import har`: round trip with the journal, Chrome's and Proxyman's HARs, secrets, and what a bad HAR gets.
@Suite struct HARImportTests {
    /// A project folder with a copy of the contracts and an empty scenarios folder, removed by `remove()`.
    struct Project {
        let root: URL
        var contracts: URL { root.appendingPathComponent("contracts") }
        var scenarios: URL { root.appendingPathComponent("scenarios") }

        init() throws {
            root = try EngineTestSupport.temporaryDirectory()
            try FileManager.default.copyItem(at: ContractSet.bundledDirectory, to: contracts)
            try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }

        func load() throws -> ContractSet { try ContractSet.load(from: contracts) }

        /// Every file under the project with its bytes, to prove nothing changed.
        func snapshot() throws -> [String: Data] {
            var files: [String: Data] = [:]
            let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                if let data = try? Data(contentsOf: url) { files[url.path] = data }
            }
            return files
        }
    }

    /// Shows the "no connection" alert for every failure: wrong for a 503, which the seeds map to the generic alert.
    struct ShowsNoConnectionForEverything: ClientDriver {
        var description: String { "broken: no-connection alert for every failure" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            Rewriting(inner: try await PetSpotClientDriver().open(context)) { _, observation in
                var o = observation
                if o.alert != nil { o.alert = ObservedAlert(kind: "noConnection", message: AlertKind.noConnection.message) }
                return o
            }
        }
    }

    private static func import_(_ text: String, file: String, into project: Project, keepSecrets: Bool = false) throws -> (HARImport.Plan, HARImport.Outcome) {
        let contracts = try project.load()
        let plan = try HARImport.plan(try HARReader.read(Data(text.utf8), file: file), file: file, contracts: contracts, keepSecrets: keepSecrets)
        return (plan, try HARImport.write(plan, contracts: contracts, scenarios: project.scenarios))
    }

    // MARK: the journal round trip

    @Test func aScenarioRunsJournalAsHARImportsToTheSameFixturesAndExamples() async throws {
        let scenario = try EngineTestSupport.parse("""
            {"name": "journal round trip", "report": "default",
             "steps": [{"action": "list", "expect": {"outcome": "success"}},
                       {"action": "submit", "expect": {"outcome": "failure", "because": "fails on purpose, so the run keeps its exchanges"}}]}
            """)
        let contracts = try EngineTestSupport.contracts()
        var runner = ScenarioRunner(driver: PetSpotClientDriver(), targets: EmbeddedBackendProvider(contracts: contracts), seed: 1)
        runner.keepsFailedExchanges = true
        let result = await runner.run(EngineTestSupport.relaxed(scenario))
        #expect(result.status == .failed)
        let journal = result.exchanges
        #expect(journal.compactMap(\.contract) == ["listAnnouncements", "createAnnouncement", "uploadPhoto"])

        let folder = try EngineTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = RunReport(results: [result], duration: .seconds(1), client: "c", target: "t")
        // Written with --keep-secrets: a redacted Basic credential could not pass the upload's own check on import.
        let files = try FailedScenarioHAR.write(report, to: folder, secrets: nil)
        #expect(files.map(\.lastPathComponent) == ["test.har"])

        // Straight from the journal: the recorder and the merge, into one copy of the contracts.
        let direct = try Project()
        defer { direct.remove() }
        let recordings = folder.appendingPathComponent("recordings")
        let recorder = try ExchangeRecorder(directory: recordings, contracts: try direct.load())
        journal.forEach(recorder.record)
        let merged = try RecordingMerge.merge(recordings: recordings, into: direct.contracts)
        #expect(!merged.merged.isEmpty)

        // Through the HAR file: the import, into another copy.
        let imported = try Project()
        defer { imported.remove() }
        let (plan, outcome) = try Self.import_(String(decoding: try Data(contentsOf: files[0]), as: UTF8.self), file: files[0].path,
                                               into: imported, keepSecrets: true)
        #expect(outcome.merged == merged.merged)
        #expect(plan.fixtures == RecordFixtureHarvest.fixtures(from: journal))
        #expect(plan.fixtures["announcements"]?.arrayValue?.count == 1)
        for name in try FileManager.default.contentsOfDirectory(atPath: direct.contracts.path) where name.hasSuffix(".json") {
            #expect(try Data(contentsOf: direct.contracts.appendingPathComponent(name)) == Data(contentsOf: imported.contracts.appendingPathComponent(name)),
                    "contracts/\(name) differs")
        }
        // The fixtures load as the mock's own fixtures.
        let fixtures = try RecordFixture.parse(plan.fixtures, file: "fixtures")
        #expect(fixtures.first?.fields["id"]?.stringValue == journal[1].responseBody.flatMap { try? JSONValue(parsing: $0.bytes) }?["id"]?.stringValue)
    }

    // MARK: Chrome

    static var chromeHAR: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("tests/har/chrome-dashboard.har")
    }

    @Test func aHARChromeSavedFromTheDashboardPageImports() throws {
        let project = try Project()
        defer { project.remove() }
        let (plan, outcome) = try Self.import_(String(decoding: try Data(contentsOf: Self.chromeHAR), as: UTF8.self),
                                               file: "chrome-dashboard.har", into: project)
        // The page, its files and the admin API match no contract and are left out.
        #expect(plan.unmatched.count == 4)
        #expect(plan.unmatched[0] == "entry 0 (GET http://127.0.0.1:3000/__spotcheck/)")
        #expect(plan.exchanges.compactMap(\.entry.contract) == ["listAnnouncements", "getImage", "getAnnouncement", "getAnnouncement"])
        // net::ERR_EMPTY_RESPONSE is a dropped connection.
        #expect(plan.exchanges[2].fault == ["kind": "drop"])
        let fixtures = try RecordFixture.parse(plan.fixtures, file: "f")
        #expect(fixtures.map { $0.fields["petName"]?.stringValue } == ["Rex"])
        #expect(fixtures[0].photo != nil)
        #expect(fixtures[0].fields["managementPassword"]?.stringValue == RecordFixtureHarvest.placeholderPassword)
        #expect(outcome.merged.contains { $0.hasPrefix("listAnnouncements 200") })
        let scenario = try JSONValue(parsing: Data(contentsOf: project.scenarios.appendingPathComponent("har-chrome-dashboard.json")))
        #expect(scenario["steps"]?.arrayValue?.compactMap { $0["action"]?.stringValue } == ["list", "loadDetails", "retryDetails"])
        #expect(ScenarioLinter.lint(directory: project.scenarios, contracts: try project.load()).map(\.pointer) == ["/steps/1/todo"])
        #expect(scenario["steps"]?.arrayValue?[1]["todo"]?.stringValue?.contains("lost its connection") == true)
        // The cookie never reaches the disk.
        let written = try project.snapshot().values.map { String(decoding: $0, as: UTF8.self) }
        #expect(!written.contains { $0.contains("abc123secret") })
    }

    // MARK: Proxyman, a 503 on the photo upload

    static let password = "731904"
    static let createdID = "5b0c8f2e-9d41-4c7a-a3e6-1f2b3c4d5e6f"

    /// A field session as Proxyman saves it: https, a time-zone offset in the dates, timings of -1, the multipart upload
    /// kept as `params` (no `text`), `_`-prefixed extras, and the upload answered 503 with Retry-After.
    static var proxymanHAR: String {
        let auth = Data("\(createdID):\(password)".utf8).base64EncodedString()
        let created = #"{"id":"\#(createdID)","petName":"Luna","species":"CAT","breed":null,"sex":"FEMALE","age":2,"description":null,"microchipNumber":null,"locationLatitude":50.06,"locationLongitude":19.94,"lastSeenDate":"2026-11-20","email":"luna@example.com","phone":"+48 600 100 200","photoUrl":null,"status":"MISSING","reward":null,"createdAt":"2026-11-25T09:12:03.410Z","updatedAt":"2026-11-25T09:12:03.410Z","managementPassword":"\#(password)"}"#
        let createBody = #"{"petName":"Luna","species":"CAT","sex":"FEMALE","age":2,"locationLatitude":50.06,"locationLongitude":19.94,"lastSeenDate":"2026-11-20","status":"MISSING","email":"luna@example.com","phone":"+48 600 100 200"}"#
        func quoted(_ s: String) -> String { JSONValue.string(s).serialized() }
        return """
            {"log": {"version": "1.2", "creator": {"name": "Proxyman", "version": "5.12.0"}, "pages": [],
              "entries": [
                {"startedDateTime": "2026-11-25T10:12:03.201+01:00", "time": 208.4, "serverIPAddress": "203.0.113.7", "connection": "443",
                 "request": {"method": "POST", "url": "https://api.petspot.example/api/v1/announcements", "httpVersion": "HTTP/2",
                   "cookies": [], "headers": [{"name": "content-type", "value": "application/json"}, {"name": "user-agent", "value": "PetSpot/1.4 CFNetwork/1494 Darwin/23.4.0"}],
                   "queryString": [], "headersSize": -1, "bodySize": \(createBody.utf8.count),
                   "postData": {"mimeType": "application/json", "text": \(quoted(createBody))}},
                 "response": {"status": 201, "statusText": "Created", "httpVersion": "HTTP/2", "cookies": [],
                   "headers": [{"name": "content-type", "value": "application/json; charset=utf-8"}, {"name": "request-id", "value": "Xp3kq81ZaF"}],
                   "content": {"size": \(created.utf8.count), "mimeType": "application/json; charset=utf-8", "text": \(quoted(created))},
                   "redirectURL": "", "headersSize": -1, "bodySize": \(created.utf8.count)},
                 "cache": {}, "timings": {"blocked": -1, "dns": -1, "connect": -1, "ssl": -1, "send": 1.2, "wait": 205.0, "receive": 2.2},
                 "_proxyman": {"id": 41, "isSSL": true}},
                {"startedDateTime": "2026-11-25T10:12:03.520+01:00", "time": 31.0, "serverIPAddress": "203.0.113.7",
                 "request": {"method": "POST", "url": "https://api.petspot.example/api/v1/announcements/\(createdID)/photos", "httpVersion": "HTTP/2",
                   "cookies": [], "headers": [{"name": "authorization", "value": "Basic \(auth)"},
                                              {"name": "content-type", "value": "multipart/form-data; boundary=Boundary-7F2A"}],
                   "queryString": [], "headersSize": -1, "bodySize": 48213,
                   "postData": {"mimeType": "multipart/form-data; boundary=Boundary-7F2A",
                                "params": [{"name": "photo", "fileName": "photo.jpg", "contentType": "image/jpeg"}]}},
                 "response": {"status": 503, "statusText": "Service Unavailable", "httpVersion": "HTTP/2", "cookies": [],
                   "headers": [{"name": "retry-after", "value": "30"}, {"name": "content-type", "value": "application/json"}, {"name": "request-id", "value": "Yq4lr92AbG"}],
                   "content": {"size": 71, "mimeType": "application/json", "text": "{\\"error\\":{\\"code\\":\\"SERVICE_UNAVAILABLE\\",\\"message\\":\\"Try later\\"}}"},
                   "redirectURL": "", "headersSize": -1, "bodySize": 71},
                 "cache": {}, "timings": {"blocked": -1, "dns": -1, "connect": -1, "ssl": -1, "send": -1, "wait": 30.0, "receive": -1},
                 "_proxyman": {"id": 42, "isSSL": true}}
              ]}}
            """
    }

    @Test func aFieldHARWithA503OnTheUploadBecomesAScenarioThatCatchesTheWrongAlert() async throws {
        let project = try Project()
        defer { project.remove() }
        let (plan, outcome) = try Self.import_(Self.proxymanHAR, file: "field-upload.har", into: project)
        #expect(plan.name == "har-field-upload")
        // The scenario and the fixtures, then the merged contract (the create's 201).
        #expect(outcome.written.map(\.lastPathComponent) == ["har-field-upload.json", "har-field-upload.json", "create-announcement.json"])
        let file = project.scenarios.appendingPathComponent("har-field-upload.json")
        var scenario = try JSONValue(parsing: Data(contentsOf: file))
        #expect(scenario["faults"]?.arrayValue?.first?["contract"] == "uploadPhoto")
        #expect(scenario["faults"]?.arrayValue?.first?["calls"] == [1])
        #expect(scenario["faults"]?.arrayValue?.first?["fault"]?["status"] == 503)
        #expect(scenario["faults"]?.arrayValue?.first?["fault"]?["headers"]?["Retry-After"] == "30")

        // Lint says which expectation is missing.
        let contracts = try project.load()
        let problems = ScenarioLinter.lint(directory: project.scenarios, contracts: contracts)
        #expect(problems.map(\.pointer) == ["/steps/0/todo"])
        #expect(problems.first?.message.hasPrefix("expectation still missing: the session met uploadPhoto answered 503") == true)

        // The user fills it in.
        guard case .object(var root) = scenario, case .array(var steps)? = root["steps"], case .object(var step) = steps[0],
              case .object(var expect)? = step["expect"] else { Issue.record("unexpected skeleton shape"); return }
        step["todo"] = nil
        expect["outcome"] = "failure"
        expect["alert"] = ["kind": "generic"]
        step["expect"] = .object(expect)
        steps[0] = .object(step)
        root["steps"] = .array(steps)
        scenario = .object(root)
        try scenario.data(pretty: true).write(to: file)
        #expect(ScenarioLinter.lint(directory: project.scenarios, contracts: contracts).isEmpty)

        let library = try ScenarioLibrary.load(from: project.scenarios)
        let runner = { (driver: any ClientDriver) in ScenarioRunner(driver: driver, targets: EmbeddedBackendProvider(contracts: contracts), seed: 1) }
        let good = await runner(PetSpotClientDriver()).run(EngineTestSupport.relaxed(library.scenarios[0]))
        #expect(good.status == .passed, "\(good.failureMessage ?? "")")
        let wrong = await runner(ShowsNoConnectionForEverything()).run(EngineTestSupport.relaxed(library.scenarios[0]))
        #expect(wrong.status == .failed)
        #expect(wrong.failureMessage?.contains("alert") == true)
    }

    @Test func secretsAreRedactedUnlessKept() throws {
        let auth = Data("\(Self.createdID):\(Self.password)".utf8).base64EncodedString()
        let project = try Project()
        defer { project.remove() }
        _ = try Self.import_(Self.proxymanHAR, file: "field.har", into: project)
        let written = try project.snapshot().values.map { String(decoding: $0, as: UTF8.self) }
        #expect(!written.contains { $0.contains(Self.password) || $0.contains(auth) })

        let kept = try Project()
        defer { kept.remove() }
        _ = try Self.import_(Self.proxymanHAR, file: "field.har", into: kept, keepSecrets: true)
        #expect(try kept.snapshot().values.contains { String(decoding: $0, as: UTF8.self).contains(Self.password) })
    }

    /// The field session with its upload answered 201 as the contract documents it (an empty object).
    static var proxymanHARWithStoredPhoto: String {
        proxymanHAR
            .replacingOccurrences(of: #""status": 503, "statusText": "Service Unavailable""#, with: #""status": 201, "statusText": "Created""#)
            .replacingOccurrences(of: #"{"name": "retry-after", "value": "30"}, "#, with: "")
            .replacingOccurrences(of: #""content": {"size": 71, "mimeType": "application/json", "text": "{\"error\":{\"code\":\"SERVICE_UNAVAILABLE\",\"message\":\"Try later\"}}"}"#,
                                  with: #""content": {"size": 2, "mimeType": "application/json", "text": "{}"}"#)
    }

    @Test func aValidBasicUploadImportsWithItsSecretsRedacted() throws {
        let har = Self.proxymanHARWithStoredPhoto
        #expect(!har.contains("SERVICE_UNAVAILABLE"))
        let project = try Project()
        defer { project.remove() }
        let (plan, outcome) = try Self.import_(har, file: "field-stored.har", into: project)
        // The credential decoded as sent; redacting it afterwards is no reason to call the upload broken.
        #expect(plan.broken.isEmpty, "\(plan.broken)")
        #expect(!outcome.skipped.contains { $0.contains("broke") }, "\(outcome.skipped)")
        #expect(outcome.merged.contains { $0.contains("uploadPhoto") || $0.contains("upload-photo") }, "merged \(outcome.merged), skipped \(outcome.skipped)")
        let auth = Data("\(Self.createdID):\(Self.password)".utf8).base64EncodedString()
        let written = try project.snapshot().values.map { String(decoding: $0, as: UTF8.self) }
        #expect(!written.contains { $0.contains(Self.password) || $0.contains(auth) })
        // The merged contracts still lint: a redacted credential in an example is not a broken example.
        #expect(throws: Never.self) { _ = try project.load() }
    }

    // MARK: bad HARs

    @Test func aHARFromAnotherAPINamesTheEntryAndWritesNothing() throws {
        let project = try Project()
        defer { project.remove() }
        let before = try project.snapshot()
        let text = #"{"log": {"version": "1.2", "creator": {"name": "Firefox", "version": "133"}, "entries": [{"startedDateTime": "2026-11-25T10:00:00.000+01:00", "time": 5, "request": {"method": "GET", "url": "https://shop.example/cart"}, "response": {"status": 200, "content": {"mimeType": "text/html"}}}]}}"#
        do {
            _ = try Self.import_(text, file: "shop.har", into: project)
            Issue.record("a HAR of another API was imported")
        } catch let error as HARReadError {
            #expect(error.description.hasPrefix("shop.har: entry 0 (https://shop.example/cart): no entry matches a contract"))
        }
        #expect(try project.snapshot() == before)
    }

    @Test func aTruncatedHARNamesTheEntryItBrokeOffIn() throws {
        let text = Self.proxymanHAR
        let cut = String(text[..<text.range(of: "Service Unavailable")!.lowerBound])
        do {
            _ = try HARReader.read(Data(cut.utf8), file: "cut.har")
            Issue.record("a truncated HAR was read")
        } catch {
            #expect(error.entry == 1)
            #expect(error.url == "https://api.petspot.example/api/v1/announcements/\(Self.createdID)/photos")
            #expect(error.message.contains("truncated"))
        }
    }

    @Test func aTruncatedChromeHARNamesTheEntryThoughItsDateComesLast() throws {
        let cut = try Data(contentsOf: Self.chromeHAR).prefix(9_000)
        do {
            _ = try HARReader.read(Data(cut), file: "cut.har")
            Issue.record("a truncated HAR was read")
        } catch {
            #expect(error.entry == 2)
            #expect(error.url == "http://127.0.0.1:3000/__spotcheck/dashboard/app.js")
        }
    }

    @Test func anEntryWithoutAStatusIsNamed() throws {
        let text = #"{"log": {"entries": [{"request": {"method": "GET", "url": "http://h/api/health"}, "response": {"content": {}}}]}}"#
        do {
            _ = try HARReader.read(Data(text.utf8), file: "x.har")
            Issue.record("an entry without a status was read")
        } catch {
            #expect(error.description == "x.har: entry 0 (http://h/api/health): /log/entries/0/response/status: expected the response status as a number")
        }
    }

    @Test func anExistingScenarioIsNotOverwritten() throws {
        let project = try Project()
        defer { project.remove() }
        try Data("{}".utf8).write(to: project.scenarios.appendingPathComponent("har-field.json"))
        let before = try project.snapshot()
        #expect(throws: HARImport.WriteError.self) { _ = try Self.import_(Self.proxymanHAR, file: "field.har", into: project) }
        #expect(try project.snapshot() == before)
    }
}
