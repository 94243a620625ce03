import ContractKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ContractModel
import MockBackend
import Testing
@testable import PetSpotClient

/// `setDeviceOffline` fails requests as a phone without a network does (-1009) before anything is sent, only for this
/// API's origin, and the app's mapping sees it through every layer as "No connection".
@Suite struct SimulatedOfflineTests {
    typealias Harness = MockBackendHarness

    @Test func anOfflineDeviceFailsWithNotConnectedToInternetAndSendsNothing() async throws {
        try await Harness.withBackend { backend in
            let api = Harness.api(backend)
            api.setDeviceOffline(true)
            defer { api.setDeviceOffline(false) }
            let service = AnnouncementSubmissionService(api: api)
            do {
                _ = try await service.submit(Samples.draft())
                Issue.record("an offline device cannot submit")
            } catch {
                #expect(ErrorMapping.connectivityError(in: error)?.code == .notConnectedToInternet, "\(error)")
                #expect(ErrorMapping.alert(for: error) == .noConnection)
                let cause = ErrorMapping.cause(for: error)
                #expect(cause.kind == .urlError && cause.code == -1009)
            }
            #expect(Harness.calls(backend).isEmpty, "nothing reaches the server from an offline device")
            api.setDeviceOffline(false)
            let receipt = try await service.submit(Samples.draft())
            #expect(AnnouncementSubmissionService.isManagementPassword(receipt.managementPassword))
        }
    }

    @Test func offlineIsPerOrigin() {
        let a = URL(string: "http://127.0.0.1:4001/api")!
        let b = URL(string: "http://127.0.0.1:4002/api")!
        SimulatedOffline.setOffline(true, for: a)
        defer { SimulatedOffline.setOffline(false, for: a) }
        #expect(SimulatedOffline.isOffline(URL(string: "http://127.0.0.1:4001/other")!))
        #expect(!SimulatedOffline.isOffline(b))
    }
}
