import Foundation

/// The process-wide mutant switch behind ``ClientMutant/activate(_:)``. A lock rather than a global variable, because
/// the form, the API and URLSession's delegate queue read it from different isolation domains.
final class MutantSwitch: @unchecked Sendable {
    static let shared = MutantSwitch()

    private let lock = NSLock()
    private var mutant: ClientMutant?

    func set(_ value: ClientMutant?) {
        lock.lock()
        defer { lock.unlock() }
        mutant = value
    }

    func get() -> ClientMutant? {
        lock.lock()
        defer { lock.unlock() }
        return mutant
    }
}
