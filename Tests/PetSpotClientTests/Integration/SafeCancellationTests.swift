import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ContractModel
import MockBackend
import Testing
@testable import PetSpotClient

@Suite struct SafeCancellationTests {
    static func healthRequest(_ backend: ContractMock) -> URLRequest {
        URLRequest(url: backend.baseURL.appendingPathComponent("api/health"), timeoutInterval: 30)
    }

    @Test func answersLikeDataForRequest() async throws {
        try await MockBackendHarness.withBackend { backend in
            let (data, response) = try await URLSession.shared.dataCancellingSafely(for: Self.healthRequest(backend))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self).contains("\"ok\""))
        }
    }

    @Test(.timeLimit(.minutes(1))) func cancellingAStalledTransferEndsItAsCancelled() async throws {
        try await MockBackendHarness.withBackend(faults: #"{"rules": [{"fault": {"kind": "stall"}}]}"#) { backend in
            let request = Self.healthRequest(backend)
            let task = Task { try await URLSession.shared.dataCancellingSafely(for: request) }
            try await Task.sleep(for: .milliseconds(200))
            task.cancel()
            await #expect(throws: URLError.self) { _ = try await task.value }
            let error = await task.result.failure as? URLError
            #expect(error?.code == .cancelled)
        }
    }

    /// Cancellations racing completions: with `data(for:)` this deadlocks the process on Linux (the time limit catches it).
    @Test(.timeLimit(.minutes(1))) func cancellationsRacingCompletionsNeverHang() async throws {
        try await MockBackendHarness.withBackend { backend in
            let request = Self.healthRequest(backend)
            for round in 0..<40 {
                let task = Task { try await URLSession.shared.dataCancellingSafely(for: request) }
                try await Task.sleep(for: .microseconds(250 * (round % 8)))
                task.cancel()
                _ = await task.result
            }
        }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
