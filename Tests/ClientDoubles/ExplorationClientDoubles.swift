// Test doubles shared by test targets; @testable needs a debug build, so release builds compile this module empty.
#if DEBUG
import Foundation
import PetSpotClient

@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// Clients for exploration's own behaviour (issue 28): several bugs at once, a machine too slow for the client's
/// timeout, and a details screen that loads the wrong announcement.
enum ExplorationClientDoubles {
    /// Three unrelated bugs in one client: the reward trimmed before sending (seed 001 FR-006 says verbatim), the
    /// completion event emitted after a failed attempt, and the microchip shown without the seeds' dashes.
    struct ThreeUnrelatedBugs: ClientDriver {
        var description: String { "broken: reward trimmed, analytics on failure, microchip without dashes" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            let inner = try await PetSpotClientDriver(makeSubmitter: { api in
                TamperingSubmitter(api: api) { body in body.reward = body.reward?.trimmingCharacters(in: .whitespaces) }
            }).open(context)
            return Rewriting(inner: inner) { _, observation in
                var o = observation
                if o.outcome == .failure { o.analytics = (o.analytics ?? []) + ["missing_pet.step4_completed"] }
                if let shown = o.details?.presentation["microchipNumber"], shown != "—" {
                    o.details?.presentation["microchipNumber"] = shown.replacingOccurrences(of: "-", with: "")
                }
                return o
            }
        }
    }

    /// A correct client on a machine too slow for a short request timeout: with a timeout under `slowBelowMs` its
    /// first submission's answer arrives too late (-1001), as for a starved process; with more time it behaves as the
    /// reference client.
    struct TooSlowForShortTimeouts: ClientDriver {
        /// Request timeouts below this are too short for the simulated machine.
        var slowBelowMs = 2000
        var description: String { "reference client on a machine too slow for short timeouts" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            guard let real = try await PetSpotClientDriver().open(context) as? PetSpotClientSession else { throw DriverError("expected the in-process session") }
            return await StarvedSession(inner: real, starved: context.settings.requestTimeoutMs < slowBelowMs)
        }
    }

    /// Remembers the first announcement whose details it opened and shows that one ever after (a stale cache).
    struct ShowsFirstLoadedPet: ClientDriver {
        var description: String { "broken: details show the first announcement opened" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            FirstPetSession(inner: try await PetSpotClientDriver().open(context))
        }
    }
}

/// Times out the first submission when starved, then behaves as the reference client.
@MainActor
final class StarvedSession: ClientSession {
    let inner: PetSpotClientSession
    var starved: Bool
    init(inner: PetSpotClientSession, starved: Bool) {
        self.inner = inner
        self.starved = starved
    }

    func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation {
        guard starved, [.submit, .doubleTapContinue, .retry].contains(action) else { return try await inner.perform(action) }
        starved = false
        // The requests go out, but the answer comes too late for the starved process: it shows what the reference
        // client shows for a time-out (003 T044), with the platform's cause.
        let late = try await inner.perform(action)
        let alert = ObservedAlert(kind: "noConnection", message: AlertExpectation.standardMessages["noConnection"] ?? "")
        return ClientObservation(outcome: .failure, alert: alert, inputs: late.inputs, screen: "form",
                                 cause: ObservedCause(kind: .urlError, domain: "NSURLErrorDomain", code: -1001), analytics: [])
    }

    func close() async { await inner.close() }
}

/// Loads the first opened announcement whatever id it is asked for.
actor FirstPetSession: ClientSession {
    let inner: any ClientSession
    var first: String?
    init(inner: any ClientSession) { self.inner = inner }

    func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation {
        guard case .loadDetails(let id) = action else { return try await inner.perform(action) }
        let shown = first ?? id
        first = shown
        return try await inner.perform(.loadDetails(id: shown))
    }

    func close() async { await inner.close() }
}
#endif
