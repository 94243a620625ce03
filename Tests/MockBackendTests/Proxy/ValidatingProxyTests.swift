import ContractKit
import Foundation
import Testing
@testable import ContractModel
@testable import MockBackend

/// The validating proxy end to end: a mock (faithful or drifting) behind `FaultProxy` with an `ExchangeMonitor`.
@Suite struct ValidatingProxyTests {
    /// Console lines the monitor printed.
    final class Console: Sendable {
        private let lines = Locked([String]())
        var all: [String] { lines.withLock { $0 } }
        func write(_ line: String) { lines.withLock { $0.append(line) } }
    }

    struct Setup {
        let mock: ContractMock
        let proxy: RunningFaultProxy
        let monitor: ExchangeMonitor
        let console: Console
        var http: PetSpotHTTP { PetSpotHTTP(url: proxy.baseURL) }
        /// The proxy's admin API, on its admin port.
        var admin: PetSpotHTTP { PetSpotHTTP(url: proxy.adminBaseURL) }
    }

    private func withValidatingProxy<T>(drift: Set<ContractDrift> = [], record: URL? = nil,
                                        knownDefects: any KnownDefectMatching = NoKnownDefects(),
                                        _ body: (Setup) async throws -> T) async throws -> T {
        let contracts = try BundledContractsTestSupport.loadedContracts()
        var options = ContractMock.Options(contracts: contracts, seed: 3, quiet: true, checkResponses: false)
        options.drift = drift
        options.idleTimeout = patientIdleTimeout
        let mock = try await ContractMock.start(options)
        let console = Console()
        let monitor = ExchangeMonitor(
            validator: ExchangeValidator(contracts: contracts, knownDefects: knownDefects),
            coverage: ContractCoverage(contracts: contracts, source: "real"),
            recorder: try record.map { try ExchangeRecorder(directory: $0, contracts: contracts) },
            console: { console.write($0) })
        let proxy: RunningFaultProxy
        do {
            proxy = try await FaultProxy.start(target: mock.baseURL, contracts: contracts, exchangeObserver: monitor, idleTimeout: patientIdleTimeout)
        } catch {
            try? await mock.shutdown()
            throw error
        }
        do {
            let result = try await body(Setup(mock: mock, proxy: proxy, monitor: monitor, console: console))
            try await proxy.shutdown()
            try await mock.shutdown()
            return result
        } catch {
            try? await proxy.shutdown()
            try? await mock.shutdown()
            throw error
        }
    }

    @Test func aDriftingServerIsReportedInAllFourPlaces() async throws {
        try await withValidatingProxy(drift: [.renamedManagementPassword]) { setup in
            let answer = try await setup.http.postJSON("/api/v1/announcements", BundledContractsTestSupport.createBody())
            #expect(answer.status == 201)
            // 1. the response header the client sees
            let header = try #require(answer.header(ViolationHeader.name))
            #expect(header.contains("server createAnnouncement"))
            #expect(header.contains("managementPassword"))
            // 2. the journal entry
            let entry = try #require(setup.proxy.journal.entries().last)
            let server = entry.violations.filter { $0.side == .server }
            #expect(server.contains { $0.pointer == "/managementPassword" && $0.contract == "createAnnouncement" })
            #expect(!entry.violations.contains { $0.side == .client })
            // 3. one console line per violation, naming contract, pointer, expected, got and side
            let lines = setup.console.all
            #expect(lines.count == entry.violations.count)
            #expect(lines.contains { $0.contains("[server] createAnnouncement /managementPassword: expected") && $0.contains("got") })
            // 4. GET /__spotcheck/violations
            let admin = try await setup.admin.get("/__spotcheck/violations")
            let json = try #require(admin.json)
            #expect(json["totals"]?["violations"]?.intValue == entry.violations.count)
            #expect(json["totals"]?["failedExchanges"] == 1)
            let items = json["violations"]?.arrayValue ?? []
            #expect(items.contains { $0["pointer"] == "/managementPassword" && $0["side"] == "server" && $0["sequence"]?.intValue == entry.sequence })
        }
    }

    @Test func anUndocumentedStatusIsTheServersFault() async throws {
        try await withValidatingProxy(drift: [.photoUploadAnswers200]) { setup in
            let (id, password) = try await setup.http.create()
            let answer = try await setup.http.upload(id: id, authorization: BundledContractsTestSupport.basic(id, password), bytes: BundledContractsTestSupport.png)
            #expect(answer.status == 200)
            let entry = try #require(setup.proxy.journal.entries().last)
            #expect(entry.violations.map(\.pointer) == ["status"])
            #expect(entry.violations.first?.side == .server)
            #expect(entry.violations.first?.got.contains("200") == true)
        }
    }

    @Test func aFaithfulServerGivesNoViolationsAndFullFlowCoverage() async throws {
        try await withValidatingProxy { setup in
            let http = setup.http
            let (id, password) = try await http.create()
            #expect(try await http.get("/api/v1/announcements/\(id)").header(ViolationHeader.name) == nil)
            let upload = try await http.upload(id: id, authorization: BundledContractsTestSupport.basic(id, password), bytes: BundledContractsTestSupport.png)
            #expect(upload.status == 201)
            let read = try await http.get("/api/v1/announcements/\(id)")
            #expect(read.json?["photoUrl"]?.stringValue?.hasPrefix("/images/\(id).") == true)
            #expect(try await http.get("/api/v1/announcements").status == 200)
            #expect(try await http.get("/api/health").status == 200)
            let entries = setup.proxy.journal.entries()
            #expect(entries.count == 6)
            #expect(entries.allSatisfy { $0.violations.isEmpty })
            #expect(setup.console.all.isEmpty)
            #expect(setup.monitor.log.totals == ViolationLog.Totals(exchanges: 6))
            let coverage = try #require(try await setup.admin.get("/__spotcheck/coverage").json)
            let missing = coverage["missing"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(!missing.contains("createAnnouncement 201"))
            #expect(!missing.contains("uploadPhoto 201"))
            #expect(missing.contains("createAnnouncement 400 MISSING_VALUE"))
            #expect(coverage["observed"]?.intValue == 5)
        }
    }

    @Test func aClientSendingAnInvalidBodyIsTheClientsFault() async throws {
        try await withValidatingProxy { setup in
            let answer = try await setup.http.postJSON("/api/v1/announcements", BundledContractsTestSupport.createBody([("species", nil)]))
            #expect(answer.status == 400)
            #expect(answer.errorCode == "MISSING_VALUE")
            let entry = try #require(setup.proxy.journal.entries().last)
            #expect(entry.violations.map(\.side) == [.client])
            #expect(entry.violations.first?.pointer == "/species")
            #expect(answer.header(ViolationHeader.name)?.hasPrefix("client createAnnouncement /species") == true)
        }
    }

    @Test func theBasicUserMustBeTheCreatedID() async throws {
        try await withValidatingProxy { setup in
            let (id, password) = try await setup.http.create()
            // The server compares only the password, so it accepts this; the contract says the user is the id.
            let answer = try await setup.http.upload(id: id, authorization: BundledContractsTestSupport.basic("someone", password), bytes: BundledContractsTestSupport.png)
            #expect(answer.status == 201)
            let entry = try #require(setup.proxy.journal.entries().last)
            #expect(entry.violations.map(\.side) == [.client])
            #expect(entry.violations.first?.expected.contains("auth user = created id") == true)
        }
    }

    @Test func aListedKnownDefectIsLabelledNotFailed() async throws {
        let defects = KnownDefectClosure { violation, _ in violation.pointer == "status" && violation.contract == "uploadPhoto" ? "photo-200" : nil }
        try await withValidatingProxy(drift: [.photoUploadAnswers200], knownDefects: defects) { setup in
            let (id, password) = try await setup.http.create()
            let answer = try await setup.http.upload(id: id, authorization: BundledContractsTestSupport.basic(id, password), bytes: BundledContractsTestSupport.png)
            #expect(answer.header(ViolationHeader.name) == nil)
            #expect(answer.header(ViolationHeader.knownDefectName)?.hasPrefix("photo-200:") == true)
            let totals = setup.monitor.log.totals
            #expect(totals.violations == 0)
            #expect(totals.knownDefects == 1)
            let report = ExchangeRunReport(name: "t", monitor: setup.monitor)
            #expect(!report.failed)
            #expect(!report.junit().contains("<failure"))
        }
    }

    @Test func undocumentedTrafficIsReportedAsSuch() async throws {
        try await withValidatingProxy { setup in
            _ = try await setup.http.get("/api/v2/nothing")
            let entry = try #require(setup.proxy.journal.entries().last)
            #expect(entry.violations.count == 1)
            #expect(entry.violations.first?.isUndocumented == true)
            #expect(setup.monitor.log.totals.undocumented == 1)
            let report = ExchangeRunReport(name: "t", monitor: setup.monitor)
            #expect(report.failed)
            #expect(report.junit().contains("name=\"(undocumented)\">\n      <failure"))
        }
    }

    @Test func recordingsRoundTripThroughLintAndMerge() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-rec-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let recordings = folder.appendingPathComponent("recordings")
        let credentials = try await withValidatingProxy(record: recordings) { setup in
            let (id, password) = try await setup.http.create()
            // The same answer again: not a second example.
            _ = try await setup.http.create(BundledContractsTestSupport.createBody([("microchipNumber", "123450000002")]))
            _ = try await setup.http.postJSON("/api/v1/announcements", BundledContractsTestSupport.createBody([("species", nil)]))
            _ = try await setup.http.upload(id: id, authorization: BundledContractsTestSupport.basic(id, password), bytes: BundledContractsTestSupport.png)
            return BundledContractsTestSupport.basic(id, password)
        }
        let created = try JSONValue(parsing: Data(contentsOf: recordings.appendingPathComponent("create-announcement.json")))
        let responses = created["responses"]?.arrayValue ?? []
        #expect(responses.map { $0["status"]?.intValue } == [201, 400])
        let text = try String(contentsOf: recordings.appendingPathComponent("upload-photo.json"), encoding: .utf8)
        #expect(text.contains("Basic <redacted>"))
        #expect(!text.contains(String(credentials.dropFirst("Basic ".count))))
        let example = try #require(responses.first?["examples"]?.arrayValue?.first)
        #expect(example["body"]?["managementPassword"] == .string(ExchangeRecorder.redactedPassword))
        #expect(example["request"]?["body"]?["species"] == "DOG")
        // The second answer's request broke the contract (client side): recorded with its violations, and lint says so.
        #expect(responses.last?["examples"]?.arrayValue?.first?[ExchangeRecorder.violationsKey] != nil)
        let problems = RecordingMerge.lint(directory: recordings)
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("client side") == true)
        // Merge into a copy of the contracts: the clean examples land on their answers, the violating one is skipped.
        let contracts = folder.appendingPathComponent("contracts")
        try FileManager.default.copyItem(at: try BundledContractsTestSupport.loadedContracts().directory, to: contracts)
        // Lint of the recordings must pass before merging, so merge only the clean answers' files.
        try FileManager.default.removeItem(at: recordings.appendingPathComponent("create-announcement.json"))
        var single = created.objectValue ?? JSONObject()
        single["responses"] = .array(Array(responses.prefix(1)))
        try JSONValue.object(single).data(pretty: true).write(to: recordings.appendingPathComponent("create-announcement.json"))
        #expect(RecordingMerge.lint(directory: recordings).isEmpty)
        let outcome = try RecordingMerge.merge(recordings: recordings, into: contracts)
        #expect(outcome.merged.sorted() == ["createAnnouncement 201: recorded 201", "uploadPhoto 201: recorded 201"])
        let merged = try ContractSet.load(from: contracts)
        #expect(merged.contract(id: "createAnnouncement")?.response(status: 201)?.examples.map(\.name).contains("recorded 201") == true)
        // Per-run ids, redacted credentials and the multipart boundary are not merged: verify fills them in itself.
        let upload = merged.contract(id: "uploadPhoto")?.response(status: 201)?.examples.first { $0.name == "recorded 201" }
        #expect(upload != nil && upload?.request == nil)
        // Merging again keeps names unique.
        let again = try RecordingMerge.merge(recordings: recordings, into: contracts, selectors: ["uploadPhoto:201"])
        #expect(again.merged == ["uploadPhoto 201: recorded 201 (2)"])
    }
}

extension PetSpotHTTP {
    /// A client for any base URL (the proxy's).
    init(url: URL) {
        baseURL = url
    }
}
