import Foundation
import Testing
@testable import PetSpotClient

/// A loader that fails a set number of times, then succeeds.
actor FlakyLoader: PetDetailsLoading {
    private var failuresLeft: Int
    private(set) var calls = 0
    init(failures: Int) { failuresLeft = failures }

    func announcement(id: String) async throws -> Announcement {
        calls += 1
        if failuresLeft > 0 {
            failuresLeft -= 1
            throw URLError(.timedOut)
        }
        return PetDetailsPresentationTests.announcement()
    }

    nonisolated func photoURL(for photoPath: String) -> URL? { URL(string: "http://h" + photoPath) }
}

@MainActor
@Suite struct PetDetailsModelTests {
    @Test func startsLoadingThenLoads() async {
        let model = PetDetailsModel(announcementID: "a", loader: FlakyLoader(failures: 0))
        #expect(model.state == .loading)
        await model.loadPetDetails()
        guard case .loaded(let view) = model.state else { Issue.record("expected loaded, got \(model.state)"); return }
        #expect(view.photo == .image(URL(string: "http://h/images/a.jpeg")!))
    }

    @Test func retriesWithoutLimit() async {
        let loader = FlakyLoader(failures: 5)
        let model = PetDetailsModel(announcementID: "a", loader: loader)
        for _ in 0..<5 {
            await model.loadPetDetails()
            #expect(model.state == .error("Unable to load pet details"))
            #expect(model.lastError is URLError)
        }
        await model.loadPetDetails()
        if case .loaded = model.state {} else { Issue.record("expected loaded after retries") }
        #expect(await loader.calls == 6)
        #expect(model.lastError == nil)
    }

    @Test func photoFailureShowsImageNotAvailable() async {
        let model = PetDetailsModel(announcementID: "a", loader: FlakyLoader(failures: 0))
        model.photoFailedToLoad()
        #expect(model.state == .loading)
        await model.loadPetDetails()
        model.photoFailedToLoad()
        guard case .loaded(let view) = model.state else { Issue.record("expected loaded"); return }
        #expect(view.photo == .unavailable)
    }
}
