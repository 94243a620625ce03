import ContractKit
import ContractModel
import Foundation
import MockBackend

/// One scenario file: the report to submit, the faults to inject, and the steps with their expectations.
public struct Scenario: Sendable {
    /// A unique, human-readable name; also the key for `--filter` and sharding.
    public var name: String
    /// The file it was loaded from.
    public var file: URL
    /// The file name relative to the scenarios folder, used in reports and problems.
    public var displayPath: String
    /// Free-form labels for `--tag`.
    public var tags: [String]
    /// A sentence about what the scenario proves.
    public var summary: String?
    /// What the user entered.
    public var report: ReportData
    /// The client's configuration.
    public var client: ClientSettings
    /// Backend state to prepare.
    public var backend: BackendSettings
    /// Fault rules as written (the value of `"faults"`), for linting contract ids.
    public var faults: [JSONValue]
    /// The same rules parsed by the fault layer, applied from the first step.
    public var faultRules: [FaultRule]
    /// The steps in order.
    public var steps: [Step]
    /// The client profile the scenario is written for (`profile`), `nil` when any profile may judge it.
    public var profile: String? = nil
    /// The profile's flow the scenario drives (`flow`), `nil` when it names none.
    public var flow: String? = nil

    /// Why this scenario cannot run through a fault proxy in front of a real server, or `nil` when it can.
    public var proxyIncompatibility: String? {
        if let name = backend.fixturesName {
            return "needs the backend preloaded with fixtures \"\(name)\", which a proxy cannot set up on a real server"
        }
        if let step = steps.first(where: { $0.expect.journal?.needsBackendState == true }) {
            return "step \(step.number) counts the records stored on the backend, which a proxy cannot read from a real server"
        }
        return nil
    }
}
