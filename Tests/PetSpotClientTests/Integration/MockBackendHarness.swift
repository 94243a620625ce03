import ContractKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockBackend
import Testing
@testable import PetSpotClient

/// Starts a real PetSpot mock backend on 127.0.0.1:0 for one test and always shuts it down.
enum MockBackendHarness {
    static func withBackend<T: Sendable>(
        faults json: String? = nil,
        _ body: (PetSpotMockBackend) async throws -> T
    ) async throws -> T {
        let contracts = try ContractSet.load(from: ContractSet.bundledDirectory)
        var options = PetSpotMockBackend.Options(contracts: contracts)
        options.quiet = true
        if let json {
            options.faults = try FaultRule.parseRules(try JSONValue(parsing: json), file: "test")
        }
        let backend = try await PetSpotMockBackend.start(options)
        do {
            let result = try await body(backend)
            try await backend.shutdown()
            return result
        } catch {
            try? await backend.shutdown()
            throw error
        }
    }

    /// A client pointed at the backend with a short timeout, so a stall fails fast.
    static func api(_ backend: PetSpotMockBackend, timeout: TimeInterval = 5) -> AnnouncementAPI {
        AnnouncementAPI(baseURL: backend.baseURL, configuration: .init(requestTimeout: timeout))
    }

    /// A full submission's outcome as a plain value: the password or the alert and the error.
    static func submit(_ draft: ReportDraft = Samples.draft(), to backend: PetSpotMockBackend, timeout: TimeInterval = 5) async -> Result<SubmissionReceipt, SubmissionError> {
        let service = AnnouncementSubmissionService(api: api(backend, timeout: timeout))
        do {
            return .success(try await service.submit(draft))
        } catch {
            return .failure(error)
        }
    }

    /// The journal as (contract, status) pairs, e.g. `("createAnnouncement", 201)`.
    static func calls(_ backend: PetSpotMockBackend) -> [String] {
        backend.journal.entries().map { "\($0.contract ?? "?") \($0.status.map(String.init) ?? "-")" }
    }
}
