import Foundation
import ContractModel
import MockBackend
import Testing
@testable import PetSpotClient

/// Pet details and the list endpoint against the real mock backend.
@Suite struct DetailsAgainstMockBackendTests {
    typealias Harness = MockBackendHarness

    @Test func detailsLoadASubmittedReport() async throws {
        try await Harness.withBackend { backend in
            let receipt = try await Harness.submit(to: backend).get()
            let model = await PetDetailsModel(announcementID: receipt.announcementID, loader: Harness.api(backend))
            await model.loadPetDetails()
            let state = await model.state
            guard case .loaded(let view) = state else { Issue.record("expected loaded, got \(state)"); return }
            #expect(view.status == StatusBadge(text: "MISSING", color: .red))
            #expect(view.lastSeenDate == "Nov 18, 2025")
            #expect(view.microchipNumber == "123-456-789-012")
            #expect(view.sex == "♂ Male")
            #expect(view.breed == "beagle")
            guard case .image(let url) = view.photo else { Issue.record("expected a photo"); return }
            #expect(url.absoluteString.hasPrefix(backend.baseURL.absoluteString))
        }
    }

    @Test func anUnknownIdShowsTheErrorAndRetryCanSucceed() async throws {
        try await Harness.withBackend(faults: #"{"rules": [{"contract": "getAnnouncement", "calls": [1, 2], "fault": {"kind": "status", "status": 503}}]}"#) { backend in
            let receipt = try await Harness.submit(to: backend).get()
            let model = await PetDetailsModel(announcementID: receipt.announcementID, loader: Harness.api(backend))
            await model.loadPetDetails()
            #expect(await model.state == .error("Unable to load pet details"))
            await model.loadPetDetails()
            #expect(await model.state == .error("Unable to load pet details"))
            await model.loadPetDetails()
            if case .loaded = await model.state {} else { Issue.record("expected loaded on the third try") }

            let missing = await PetDetailsModel(announcementID: "00000000-0000-4000-8000-000000000000", loader: Harness.api(backend))
            await missing.loadPetDetails()
            #expect(await missing.state == .error("Unable to load pet details"))
        }
    }

    @Test func listFiltersByDistance() async throws {
        try await Harness.withBackend { backend in
            let receipt = try await Harness.submit(to: backend).get()
            let api = Harness.api(backend)
            let all = try await api.announcements()
            #expect(all.map(\.id) == [receipt.announcementID])
            let near = try await api.announcements(near: (latitude: 52.23, longitude: 21.01), rangeKm: 5)
            #expect(near.map(\.id) == [receipt.announcementID])
            let far = try await api.announcements(near: (latitude: 40.7128, longitude: -74.0060), rangeKm: 5)
            #expect(far.isEmpty)
        }
    }

    @Test func badListParametersAreAnHTTPFailureWithTheField() async throws {
        try await Harness.withBackend { backend in
            do {
                _ = try await Harness.api(backend).announcements(near: (latitude: 52.23, longitude: 21.01), rangeKm: -1)
                Issue.record("expected a failure")
            } catch {
                guard case .http(let failure)? = error as? AnnouncementAPIError else { Issue.record("expected HTTP failure, got \(error)"); return }
                #expect(failure.status == 400)
                #expect(failure.envelope?.code == "INVALID_PARAMETER")
                #expect(failure.envelope?.field == "range")
            }
        }
    }
}
