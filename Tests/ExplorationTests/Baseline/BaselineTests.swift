import ContractKit
import Foundation
import MockBackend
import NIOCore
import NIOHTTP1
import Testing

@testable import Exploration

/// `verify --baseline` (issue 42, point 2): the target compared with the version run today, request for request. A
/// difference no contract states is a change, which fails unless an accept file lists it.
@Suite struct BaselineTests {
    /// Explores `target` against `baseline` with the same seed and budget as the other exploration tests.
    static func explore(target: @escaping ChangedServer.Bend = { $1 }, baseline: @escaping ChangedServer.Bend = { $1 }) async throws -> ExplorationOutcome {
        let baselineServer = try await ChangedServer.start(bend: baseline)
        let targetServer: ChangedServer
        do {
            targetServer = try await ChangedServer.start(bend: target)
        } catch {
            try await baselineServer.shutdown()
            throw error
        }
        var options = RequestExplorer.Options(seed: RequestExplorerTests.seed)
        options.adminToken = "tajnehasloadmina"
        options.timeout = .seconds(120)
        options.baseline = baselineServer.baseURL
        let contracts = try RequestExplorerTests.contracts.get()
        let outcome = await ExplorationSlots.shared.run {
            await RequestExplorer(contracts: contracts, target: targetServer.baseURL, options: options).explore()
        }
        try await targetServer.shutdown()
        try await baselineServer.shutdown()
        #expect(outcome.setupFailure == nil, "\(outcome.setupFailure ?? "")")
        return outcome
    }

    static func changing(_ name: String, to value: String, where matches: @escaping @Sendable (MockRequest) -> Bool) -> ChangedServer.Bend {
        { request, response in
            guard matches(request) else { return response }
            var changed = response
            changed.headers.replaceOrAdd(name: name, value: value)
            return changed
        }
    }

    @Test func theSameServerTwiceHasNoChange() async throws {
        let outcome = try await Self.explore()
        #expect(RequestExplorerTests.failing(outcome).isEmpty, "\(RequestExplorerTests.failing(outcome).map(\.headline))")
        #expect(outcome.casesSent > 0 && outcome.walks > 0)
    }

    @Test func aHeaderValueNoContractStatesIsAChangeThatFailsUnlessAccepted() async throws {
        let outcome = try await Self.explore(target: Self.changing("content-type", to: "application/json", where: WalkTests.isList))
        let changes = RequestExplorerTests.failing(outcome)
        #expect(!changes.isEmpty)
        #expect(changes.allSatisfy { $0.isNote && $0.oracle == "baseline" }, "\(changes.map(\.headline))")
        #expect(changes.allSatisfy { $0.differences.contains { $0.aspect.hasSuffix("header content-type") } }, "\(changes.map(\.headline))")
        #expect(ExplorationResults.consoleLines(outcome, strictHeaders: false, strict: true).contains { $0.contains("change: ") })
        #expect(ExplorationResults.results(outcome, strictHeaders: false, strict: true).contains { $0.status == .failed })
        // Reviewed: the same run passes.
        let accepted = try AcceptedChanges.parse(Data(#"{"accepted": [{"operation": "listAnnouncements", "header": "Content-Type"}]}"#.utf8), file: "accept.json")
        let (rest, taken) = outcome.removing(accepted)
        #expect(taken.count == changes.count)
        #expect(RequestExplorerTests.failing(rest).isEmpty, "\(RequestExplorerTests.failing(rest).map(\.headline))")
    }

    @Test func aHeaderOnlyTheTargetSendsIsAChange() async throws {
        // The details answers gain a Cache-Control the baseline never sends: a client's cache now keeps stale records.
        let outcome = try await Self.explore(target: Self.changing("cache-control", to: "max-age=60", where: { request in
            request.method == .GET && request.path.hasPrefix("/api/v1/announcements/") && request.path.split(separator: "/").count == 4
        }))
        let changes = RequestExplorerTests.failing(outcome)
        #expect(changes.contains { group in
            group.differences.contains { $0.aspect == "header cache-control" && $0.model == "absent" && $0.server == "\"max-age=60\"" }
        }, "\(changes.map(\.headline))")
        #expect(changes.allSatisfy { $0.oracle == "baseline" })
    }

    @Test func aStoredFieldAWriteForgetsIsFoundAgainstTheBaseline() async throws {
        // The read of a record after its photo: `photoUrl` stays null, as if the upload forgot to move it.
        let outcome = try await Self.explore(target: { request, response in
            guard request.method == .GET, request.path.hasPrefix("/api/v1/announcements/"), request.path.split(separator: "/").count == 4
            else { return response }
            return ChangedServer.rewrite(response) { body in
                guard var object = body.objectValue, object["photoUrl"] != nil else { return body }
                object["photoUrl"] = .null
                return .object(object)
            }
        })
        let found = RequestExplorerTests.failing(outcome)
        #expect(found.contains { $0.differences.contains { $0.bodyPointer == "/photoUrl" } }, "\(found.map(\.headline))")
        #expect(found.allSatisfy { $0.oracle == "baseline" })
    }

    @Test func aHeaderThatChangesBesideAFailingFieldIsReportedToo() async throws {
        // The read of a record answers another pet name (a stated field: a failure) and, on the same answers, another
        // content type no contract states: the failure must not hide the change.
        let outcome = try await Self.explore(target: { request, response in
            guard request.method == .GET, request.path.hasPrefix("/api/v1/announcements/"), request.path.split(separator: "/").count == 4
            else { return response }
            var changed = ChangedServer.rewrite(response) { body in
                guard var object = body.objectValue, object["petName"] != nil else { return body }
                object["petName"] = .string("Changed")
                return .object(object)
            }
            changed.headers.replaceOrAdd(name: "content-type", value: "application/json")
            return changed
        })
        let found = RequestExplorerTests.failing(outcome)
        #expect(found.contains { group in
            group.differences.contains { $0.bodyPointer == "/petName" } && group.differences.contains { $0.aspect.hasSuffix("header content-type") }
        }, "\(found.map(\.headline))")
    }

    /// Records `baseline`'s answers with the shared seed, then compares `target` with the recording.
    static func exploreAgainstRecording(target: @escaping ChangedServer.Bend = { $1 }, baseline: @escaping ChangedServer.Bend = { $1 })
        async throws -> (ExplorationOutcome, recorded: Int, unanswered: [String])
    {
        let contracts = try RequestExplorerTests.contracts.get()
        var options = RequestExplorer.Options(seed: RequestExplorerTests.seed)
        options.adminToken = "tajnehasloadmina"
        options.timeout = .seconds(120)
        let recording = BaselineRecording(recording: .init(seed: options.seed, cases: nil, walks: true, server: "baseline"))
        let baselineServer = try await ChangedServer.start(bend: baseline)
        var record = options
        record.recordBaseline = recording
        let made = await ExplorationSlots.shared.run {
            await RequestExplorer(contracts: contracts, target: baselineServer.baseURL, options: record).explore()
        }
        try await baselineServer.shutdown()
        #expect(made.setupFailure == nil, "\(made.setupFailure ?? "")")
        // Through the file, as a later run reads it.
        let file = await recording.serialized()
        let replayed = try BaselineRecording(reading: file, file: "baseline.json")
        #expect(replayed.settings.seed == RequestExplorerTests.seed)
        let targetServer = try await ChangedServer.start(bend: target)
        options.baselineRecording = replayed
        let outcome = await ExplorationSlots.shared.run {
            await RequestExplorer(contracts: contracts, target: targetServer.baseURL, options: options).explore()
        }
        try await targetServer.shutdown()
        #expect(outcome.setupFailure == nil, "\(outcome.setupFailure ?? "")")
        return (outcome, await replayed.count, await replayed.unanswered)
    }

    @Test func aRecordedBaselineOfTheSameServerHasNoChange() async throws {
        let (outcome, recorded, unanswered) = try await Self.exploreAgainstRecording()
        #expect(recorded > 100)
        #expect(RequestExplorerTests.failing(outcome).isEmpty, "\(RequestExplorerTests.failing(outcome).map(\.headline))")
        // Every request of the replay was recorded: the fresh values of either run are masked alike.
        #expect(unanswered.isEmpty, "\(unanswered.prefix(3))")
        #expect(outcome.walks > 0)
    }

    /// Counts the creates a double accepted, for a bend that changes every other one.
    final class CreateCount: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        /// The number of this create, from 1.
        func next() -> Int { lock.withLock { count += 1; return count } }
    }

    @Test func aReplayStaysInStepWhenTheTargetRefusesCreatesTheBaselineAccepted() async throws {
        // A target that refuses every other create after the run's own slots: its reads, walks and fresh values must still
        // follow the recording's, or every later request is one the recording never saw.
        let creates = CreateCount()
        let (outcome, _, unanswered) = try await Self.exploreAgainstRecording(target: { request, response in
            guard request.method == .POST, request.path == "/api/v1/announcements", response.status == .created else { return response }
            let number = creates.next()
            guard number > RequestGenerator.slots, number % 2 == 0 else { return response }
            var refused = response
            refused.status = .internalServerError
            refused.body = ByteBuffer()
            return refused
        })
        #expect(RequestExplorerTests.failing(outcome).contains { $0.route == "createAnnouncement" })
        #expect(unanswered.isEmpty, "\(unanswered.prefix(3))")
        #expect(outcome.walks > 0)
    }

    /// A register whose stand-in is `fresh`, then a login that sends `literal` as written.
    static func registerThenLogin(registering fresh: String, literal: String) -> [RenderedRequest] {
        [
            RenderedRequest(method: "POST", path: "/api/v1/users", query: [], headers: [:], body: Data(#"{"email":"\#(fresh)"}"#.utf8), fresh: [fresh]),
            RenderedRequest(method: "POST", path: "/api/v1/users/login", query: [], headers: [:], body: Data(#"{"email":"\#(literal)"}"#.utf8)),
        ]
    }

    @Test func aShortStandInThatEqualsAnotherRequestsLiteralLeavesThatRequestsKeyAlone() async throws {
        // fb9f56a, seed 3: a register's stand-in of one letter and an emoji was, in the replay only, the very text a later
        // login sent as its invalid email; masked there, the login was a request the recording never saw.
        let settings = BaselineRecording.Settings(seed: 3, cases: nil, walks: true, server: "baseline")
        let recording = BaselineRecording(recording: settings)
        for request in Self.registerThenLogin(registering: "q🐶", literal: "m🐶") {
            await recording.record(request, ExactHTTPClient.Answer(status: 400, headers: [], body: Data()))
        }
        let replay = try BaselineRecording(reading: await recording.serialized(), file: "recording.json")
        for request in Self.registerThenLogin(registering: "m🐶", literal: "m🐶") {
            #expect(await replay.answer(request)?.status == 400, "\(request.display)")
        }
        let unanswered = await replay.unanswered
        #expect(unanswered.isEmpty, "\(unanswered)")
    }

    @Test func aShortValueAWalkCarriesIsMaskedWhereItIsSentAgain() async throws {
        // The login of a walk sends the email its register made: each run's own value, the same request.
        let settings = BaselineRecording.Settings(seed: 3, cases: nil, walks: true, server: "baseline")
        let recording = BaselineRecording(recording: settings)
        func walk(_ value: String) -> [RenderedRequest] {
            var requests = Self.registerThenLogin(registering: value, literal: value.uppercased())
            requests[1].carried = [value]
            return requests
        }
        for request in walk("a@t.c") {
            await recording.record(request, ExactHTTPClient.Answer(status: 201, headers: [], body: Data()))
        }
        let replay = try BaselineRecording(reading: await recording.serialized(), file: "recording.json")
        for request in walk("k@p.z") {
            #expect(await replay.answer(request)?.status == 201, "\(request.display)")
        }
        let unanswered = await replay.unanswered
        #expect(unanswered.isEmpty, "\(unanswered)")
    }

    @Test func aRecordedBaselineFindsTheChangesTheLiveOneFinds() async throws {
        let bend = Self.changing("content-type", to: "application/json", where: WalkTests.isList)
        let live = Set(RequestExplorerTests.failing(try await Self.explore(target: bend)).map(\.route))
        let (outcome, _, _) = try await Self.exploreAgainstRecording(target: bend)
        let changes = RequestExplorerTests.failing(outcome)
        #expect(!changes.isEmpty)
        #expect(changes.allSatisfy { $0.isNote && $0.oracle == "baseline" }, "\(changes.map(\.headline))")
        #expect(Set(changes.map(\.route)) == live, "recorded \(changes.map(\.headline)), live \(live)")
    }

    @Test func aRecordingFileThatIsNotAsExpectedNamesWhereAndWhat() async {
        let cases: [(String, String)] = [
            ("{", "not JSON"),
            (#"{"format": "other"}"#, "/format"),
            (#"{"format": "spotcheck-baseline-recording/1", "seed": 3}"#, "/seed"),
            (#"{"format": "spotcheck-baseline-recording/1", "seed": "3", "cases": "x", "walks": true}"#, "/cases"),
            (#"{"format": "spotcheck-baseline-recording/1", "seed": "3", "cases": null, "walks": true, "server": "s", "answers": [{"key": "k", "status": 99}]}"#, "/answers/0/status"),
            (#"{"format": "spotcheck-baseline-recording/1", "seed": "3", "cases": null, "walks": true, "server": "s", "answers": [{"key": "k", "status": 200, "fresh": [], "body": "%%"}]}"#, "/answers/0/body"),
        ]
        for (text, expected) in cases {
            do {
                _ = try BaselineRecording(reading: Data(text.utf8), file: "rec.json")
                Issue.record("\(text) was read")
            } catch {
                #expect(error.description.hasPrefix("rec.json:") && error.description.contains(expected), "\(error.description)")
            }
        }
    }

    @Test func aTokensClaimsAreComparedAgainstABaselineAndTheirTimesByLifetime() {
        func token(_ claims: String) -> String {
            func part(_ text: String) -> String {
                Data(text.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-")
                    .replacingOccurrences(of: "/", with: "_")
            }
            return part(#"{"alg":"HS256","typ":"JWT"}"#) + "." + part(claims) + ".c2lnbmF0dXJl"
        }
        var comparison = AnswerComparison()
        comparison.comparesTokenClaims = true
        let early = token(#"{"sub":"u1","iat":1000,"exp":4600}"#)
        let later = token(#"{"exp":9600,"sub":"u1","iat":6000}"#)
        let longer = token(#"{"sub":"u1","iat":1000,"exp":8200}"#)
        let admin = token(#"{"sub":"u1","iat":1000,"exp":4600,"role":"admin"}"#)
        #expect(comparison.tokenClaims(early) == comparison.tokenClaims(later), "issued later, same lifetime, members in another order")
        #expect(comparison.tokenClaims(early) != comparison.tokenClaims(longer))
        #expect(comparison.tokenClaims(early) != comparison.tokenClaims(admin))
        #expect(comparison.tokenClaims("not.a-token") == nil)
    }

    @Test func anAcceptFileThatIsNotAsExpectedNamesWhereAndWhat() {
        let cases: [(String, String)] = [
            ("[]", "expected an object with one member"),
            (#"{"accepted": [{"pointer": "/a"}]}"#, "/accepted/0/operation"),
            (#"{"accepted": [{"operation": "x"}]}"#, "exactly one of"),
            (#"{"accepted": [{"operation": "x", "pointer": "a"}]}"#, "/accepted/0/pointer"),
            (#"{"accepted": [{"operation": "x", "header": "h", "why": 1}]}"#, "/accepted/0/why"),
            ("{", "is not JSON"),
        ]
        for (text, expected) in cases {
            #expect(throws: AcceptedChangesError.self) { try AcceptedChanges.parse(Data(text.utf8), file: "accept.json") }
            do {
                _ = try AcceptedChanges.parse(Data(text.utf8), file: "accept.json")
            } catch {
                #expect(error.description.hasPrefix("accept.json") && error.description.contains(expected), "\(error.description)")
            }
        }
    }
}
