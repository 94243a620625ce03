import ContractKit
import ContractModel
import Foundation

/// The state the backend must hold before the first step (only the embedded mock backend can provide it).
public struct BackendSettings: Sendable, Equatable {
    /// Announcements to preload, a file in `scenarios/fixtures/` in the mock backend's fixtures format.
    public var fixtures: URL?
    /// The fixtures file name as written in the scenario, for messages.
    public var fixturesName: String?
    /// Announcements written inline in the scenario (`{"announcements": [...]}`), already checked by the parser.
    public var inlineFixtures: JSONValue?
    /// A seed for ids and passwords; the run's `--seed` is used when absent.
    public var seed: UInt64?

    /// Settings with these fixtures and seed.
    public init(fixtures: URL? = nil, fixturesName: String? = nil, seed: UInt64? = nil) {
        self.fixtures = fixtures
        self.fixturesName = fixturesName
        self.seed = seed
    }
}
