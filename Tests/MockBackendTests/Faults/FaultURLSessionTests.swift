import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import ContractModel
@testable import MockBackend

/// What URLSession reports for each fault. On Linux these are measurements of FoundationNetworking (curl underneath);
/// the assertions pin them so a change is noticed, and docs/faults.md quotes them.
@Suite struct FaultURLSessionTests {
    /// The outcome of one URLSession request: a URLError code or an HTTP status with body.
    enum Outcome: Equatable {
        case error(URLError.Code)
        case answer(status: Int, bodyBytes: Int)
    }

    private func fetch(_ url: URL, method: String = "GET", timeout: TimeInterval = 60) async -> Outcome {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url)
        request.httpMethod = method
        do {
            let (data, response) = try await session.data(for: request)
            return .answer(status: (response as? HTTPURLResponse)?.statusCode ?? -1, bodyBytes: data.count)
        } catch let error as URLError {
            return .error(error.code)
        } catch {
            return .error(.unknown)
        }
    }

    private func outcome(of fault: Fault, timeout: TimeInterval = 60) async throws -> Outcome {
        var responder = EchoResponder()
        responder.padding = 2000
        return try await withServer(rules: [FaultRule(fault: fault)], responder: responder) { _, address in
            await fetch(address.baseURL.appendingPathComponent("api/v1/announcements/1"), timeout: timeout)
        }
    }

    @Test func status() async throws {
        #expect(try await outcome(of: .status(503)) == .answer(status: 503, bodyBytes: 0))
    }

    @Test func delay() async throws {
        let result = try await outcome(of: .delay(ms: 50))
        guard case .answer(200, let bytes) = result else {
            Issue.record("expected a 200, got \(result)")
            return
        }
        #expect(bytes > 2000)
    }

    @Test func stall() async throws {
        #expect(try await outcome(of: .stall, timeout: 0.5) == .error(.timedOut))
    }

    @Test func drop() async throws {
        #expect(try await outcome(of: .drop) == .error(FaultURLSessionTests.linuxDrop))
    }

    @Test func reset() async throws {
        #expect(try await outcome(of: .reset) == .error(FaultURLSessionTests.linuxReset))
    }

    @Test func truncate() async throws {
        let result = try await outcome(of: .truncate(bytes: 10))
        #expect(result == .error(FaultURLSessionTests.linuxTruncate), "\(result)")
    }

    @Test func malformed() async throws {
        let result = try await outcome(of: .malformed())
        #expect(result == .answer(status: 200, bodyBytes: FaultResponses.malformedBody.utf8.count))
    }

    @Test func slowBody() async throws {
        let result = try await outcome(of: .slowBody(chunkBytes: 512, intervalMs: 10))
        guard case .answer(200, let bytes) = result else {
            Issue.record("expected a 200, got \(result)")
            return
        }
        #expect(bytes > 2000)
    }

    @Test func refuse() async throws {
        try await withServer(rules: [FaultRule(fault: .refuse())]) { _, address in
            let result = await fetch(address.baseURL.appendingPathComponent("x"))
            #expect(result == .error(.cannotConnectToHost))
        }
    }

    @Test func refuseTriggeredByARequest() async throws {
        let rule = FaultRule(selector: FaultSelector(path: "/trigger"), fault: .refuse(ms: nil))
        try await withServer(rules: [rule]) { _, address in
            let triggering = await fetch(address.baseURL.appendingPathComponent("trigger"))
            #expect(triggering == .error(FaultURLSessionTests.linuxRefuseTrigger))
            let next = await fetch(address.baseURL.appendingPathComponent("x"))
            #expect(next == .error(.cannotConnectToHost))
        }
    }

    #if canImport(FoundationNetworking)
    // curl: "Empty reply from server".
    static let linuxDrop = URLError.Code.badServerResponse
    // curl: "Recv failure: Connection reset by peer".
    static let linuxReset = URLError.Code.networkConnectionLost
    // curl: "transfer closed with N bytes remaining to read", which FoundationNetworking does not map.
    static let linuxTruncate = URLError.Code.unknown
    static let linuxRefuseTrigger = URLError.Code.badServerResponse
    #else
    static let linuxDrop = URLError.Code.networkConnectionLost
    static let linuxReset = URLError.Code.networkConnectionLost
    static let linuxTruncate = URLError.Code.networkConnectionLost
    static let linuxRefuseTrigger = URLError.Code.networkConnectionLost
    #endif
}
