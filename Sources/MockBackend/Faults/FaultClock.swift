import ContractModel
import Foundation

/// Where the fault layer reads the time: the wall clock in servers, a virtual clock in tests and scenarios, so an
/// outage, a quota window or a rising failure rate can be crossed without waiting for it.
public protocol FaultClock: Sendable {
    /// The current time.
    var now: Date { get }
}

/// The machine's wall clock, what `serve` and `proxy` use.
public struct SystemFaultClock: FaultClock {
    /// The wall clock.
    public init() {}

    /// The current wall-clock time.
    public var now: Date { Date() }
}

/// A clock that moves only when told to: a 30-second outage is crossed by one `advance(by: 30)`, not by waiting.
public final class VirtualFaultClock: FaultClock {
    /// Where every scenario's virtual clock starts (2026-01-01T00:00:00Z), so wall-clock outages (`"at"`) repeat too.
    public static let scenarioEpoch = Date(timeIntervalSince1970: 1_767_225_600)

    private let start: Date
    private let offset = Locked<Double>(0)

    /// A clock standing at `start` until advanced.
    public init(start: Date = VirtualFaultClock.scenarioEpoch) {
        self.start = start
    }

    /// The virtual time.
    public var now: Date { start + offset.withLock { $0 } }

    /// How many seconds the clock has been advanced in all.
    public var elapsed: Double { offset.withLock { $0 } }

    /// Moves the clock forward; negative or non-finite amounts are ignored, because time-based faults assume time never runs back.
    public func advance(by seconds: Double) {
        guard seconds.isFinite, seconds > 0 else { return }
        offset.withLock { $0 += seconds }
    }
}
