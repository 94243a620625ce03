import Foundation
import MockBackend

/// The server one scenario runs against: an embedded mock backend or a fault proxy in front of a real server.
public protocol ScenarioTarget: Sendable {
    /// Where the client sends its requests.
    var baseURL: URL { get }

    /// Every request received so far, oldest first.
    func journal() async -> [JournalRecord]

    /// How many announcements the backend stores, or `nil` when the target cannot tell (a real server).
    func announcementCount() async -> Int?

    /// Replaces the fault rules (counters start again); returns once the target accepts connections as the new rules say.
    func replaceFaults(_ rules: [FaultRule]) async throws(TargetError)

    /// Stops the target; called once, also after failures.
    func shutdown() async
}

/// Makes a fresh, isolated target per scenario.
public protocol TargetProvider: Sendable {
    /// A short description for reports, e.g. `embedded mock backend`.
    var description: String { get }

    /// Why `scenario` cannot run on this kind of target, or `nil` when it can; such scenarios are reported as skipped.
    func skipReason(for scenario: Scenario) -> String?

    /// Starts a target with the scenario's fault rules (and fixtures, where supported).
    func makeTarget(for scenario: Scenario, seed: UInt64?) async throws(TargetError) -> any ScenarioTarget
}

/// A target could not be started; the scenario is reported as failed with this message.
public struct TargetError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for a person.
    public let message: String

    /// An error with this message.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// One request as the target's journal recorded it, in the engine's own terms so any journal can feed it.
public struct JournalRecord: Sendable, Equatable {
    /// Position in the journal, increasing.
    public var sequence: Int
    /// The request method.
    public var method: String
    /// The request path (without query).
    public var path: String
    /// The contract id matched from method and path, if any.
    public var contract: String?
    /// The status sent, `nil` when no response was sent (stall, drop, reset).
    public var status: Int?
    /// The Basic auth user, if the request carried one.
    public var authUser: String?
    /// The fault kind applied, if any.
    public var fault: String?

    /// A record with these values.
    public init(sequence: Int, method: String, path: String, contract: String?, status: Int?, authUser: String?, fault: String?) {
        self.sequence = sequence
        self.method = method
        self.path = path
        self.contract = contract
        self.status = status
        self.authUser = authUser
        self.fault = fault
    }

    /// One line for reports, e.g. `#3 POST /api/v1/announcements (createAnnouncement) → 503 [fault status]`.
    public var line: String {
        var text = "#\(sequence) \(method) \(path)"
        if let contract { text += " (\(contract))" }
        text += " → " + (status.map(String.init) ?? "no response")
        if let authUser { text += " auth user \(authUser)" }
        if let fault { text += " [fault \(fault)]" }
        return text
    }
}
