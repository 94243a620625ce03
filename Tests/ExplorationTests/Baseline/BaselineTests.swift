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
