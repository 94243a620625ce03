import Foundation
import PetSpotClient

@testable import ClientDoubles
@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// Broken clients whose one bug shows only where sessions reach since issue 28: each passes every session that stays
/// in winter, far from the timeout, before the first create, and at the first tap.
enum ReachBugClients {
    /// Turns the picked day into local midnight in Warsaw and writes it with the winter offset (+01:00) fixed: in
    /// summer time that midnight is 23:00 of the day before at +01:00, so the body carries the wrong day.
    static let winterOffsetDate = SpecBreakingClients.tampering { body, _ in body.lastSeenDate = winterOffset(body.lastSeenDate) }

    static func winterOffset(_ day: String) -> String {
        let read = DateFormatter()
        read.locale = Locale(identifier: "en_US_POSIX")
        read.dateFormat = "yyyy-MM-dd"
        read.timeZone = TimeZone(identifier: "Europe/Warsaw")
        guard let midnight = read.date(from: day) else { return day }
        read.timeZone = TimeZone(secondsFromGMT: 3600)
        return read.string(from: midnight)
    }

    /// Drops the microchip number from the create body.
    static let dropsMicrochip = SpecBreakingClients.tampering { body, _ in body.microchipNumber = nil }

    /// Ignores the configured request timeout and gives every request 1.2 s: enough for every answer but a late one.
    struct FixedShortTimeout: ClientDriver {
        var description: String { "broken: a fixed 1200 ms request timeout" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            var shortened = context
            shortened.settings.requestTimeoutMs = 1200
            return try await PetSpotClientDriver().open(shortened)
        }
    }

    /// Keeps the list it loaded for a query and shows it again for the same query (refreshing only in the background).
    struct ListCachedByQuery: ClientDriver {
        var description: String { "broken: shows the list cached for the same query" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            ListCaching(inner: try await PetSpotClientDriver().open(context))
        }
    }

    /// Guards a double tap only on the session's first submission; a double tap after any earlier attempt (after Cancel,
    /// a failure, going back online) runs two submissions.
    struct LaterDoubleTapSubmitsTwice: ClientDriver {
        var description: String { "broken: a later double tap submits twice" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            LaterDoubleTaps(inner: try await PetSpotClientDriver().open(context))
        }
    }
}

/// Answers a list for a query it has seen with the earlier answer, after loading the fresh one.
actor ListCaching: ClientSession {
    let inner: any ClientSession
    var cache: [String: ClientObservation] = [:]
    init(inner: any ClientSession) { self.inner = inner }

    func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation {
        let fresh = try await inner.perform(action)
        guard case .list(let lat, let lng, let range) = action, fresh.outcome == .success else { return fresh }
        let key = "\(lat.map { "\($0)" } ?? "-")|\(lng.map { "\($0)" } ?? "-")|\(range.map { "\($0)" } ?? "-")"
        if let cached = cache[key] { return cached }
        cache[key] = fresh
        return fresh
    }

    func close() async { await inner.close() }
}

/// A double tap before any attempt goes to the reference client; after one, it is two submissions.
actor LaterDoubleTaps: ClientSession {
    let inner: any ClientSession
    var attempted = false
    init(inner: any ClientSession) { self.inner = inner }

    func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation {
        let later = attempted
        if [.submit, .doubleTapContinue, .retry].contains(action) { attempted = true }
        guard action == .doubleTapContinue, later else { return try await inner.perform(action) }
        return try await TwiceSubmitting(inner: inner).perform(action)
    }

    func close() async { await inner.close() }
}
