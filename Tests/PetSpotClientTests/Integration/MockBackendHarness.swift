import ContractKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ContractModel
import MockBackend
import Testing
@testable import PetSpotClient

/// Starts a real PetSpot mock backend on 127.0.0.1:0 for one test and always shuts it down.
enum MockBackendHarness {
    static func withBackend<T: Sendable>(
        faults json: String? = nil,
        _ body: (ContractMock) async throws -> T
    ) async throws -> T {
        let contracts = try bundledContracts.get()
        var options = ContractMock.Options(contracts: contracts)
        options.quiet = true
        if let json {
            options.faults = try FaultRule.parseRules(try JSONValue(parsing: json), file: "test")
        }
        let backend = try await ContractMock.start(options)
        do {
            let result = try await body(backend)
            try await backend.shutdown()
            return result
        } catch {
            try? await backend.shutdown()
            throw error
        }
    }

    /// The repository's contracts, loaded once per test process rather than once per test.
    private static let bundledContracts = Result { () throws(ContractLoadError) in
        try ContractSet.load(from: ContractSet.bundledDirectory)
    }

    /// A client pointed at the backend. The default timeout is generous because tests share two
    /// cores and the backend's async responder shares the cooperative pool; only tests that want a
    /// timeout pass a short one.
    static func api(_ backend: ContractMock, timeout: TimeInterval = 30) -> AnnouncementAPI {
        AnnouncementAPI(baseURL: backend.baseURL, configuration: .init(requestTimeout: timeout))
    }

    /// A full submission's outcome as a plain value: the password or the alert and the error.
    static func submit(_ draft: ReportDraft = Samples.draft(), to backend: ContractMock, timeout: TimeInterval = 30) async -> Result<SubmissionReceipt, SubmissionError> {
        let service = AnnouncementSubmissionService(api: api(backend, timeout: timeout))
        do {
            return .success(try await service.submit(draft))
        } catch {
            return .failure(error)
        }
    }

    /// Runs step 1 alone with the default timeout, for tests that fault step 2 on its own.
    static func create(on backend: ContractMock) async throws -> CreatedAnnouncement {
        let body = try #require(Samples.draft().newAnnouncement())
        return try await api(backend).createAnnouncement(body)
    }

    /// Runs step 2 alone on a fresh session (so a fresh connection) with the given timeout.
    static func upload(_ created: CreatedAnnouncement, to backend: ContractMock, timeout: TimeInterval = 30) async -> AnnouncementAPIError? {
        do {
            try await api(backend, timeout: timeout).uploadPhoto(Samples.draft().photo!, announcementID: created.id, managementPassword: created.managementPassword)
            return nil
        } catch {
            return error
        }
    }

    /// Probes the health endpoint until a connection is refused; false if it never is.
    static func waitUntilRefusing(_ backend: ContractMock) async -> Bool {
        let probe = backend.baseURL.appendingPathComponent("api/health")
        for _ in 0..<100 {
            do {
                _ = try await URLSession.shared.data(from: probe)
            } catch let error as URLError where error.code == .cannotConnectToHost {
                return true
            } catch {}
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return false
    }

    /// The journal as (contract, status) pairs, e.g. `("createAnnouncement", 201)`.
    static func calls(_ backend: ContractMock) -> [String] {
        backend.journal.entries().map { "\($0.contract ?? "?") \($0.status.map(String.init) ?? "-")" }
    }
}
