import Foundation

/// A value guarded by a lock, so server state can be shared between event loops and tasks.
package final class Locked<Value>: @unchecked Sendable {
    // The lock makes every access exclusive, which is why the unchecked conformance is sound.
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
