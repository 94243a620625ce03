import Foundation

/// Runs an operation with a deadline without waiting for it to notice cancellation: a hung client must not hang the run.
enum StepDeadline {
    /// The operation's result, or `nil` when `milliseconds` passed first (the operation is then abandoned, not cancelled).
    static func run<T: Sendable>(milliseconds: Int, _ operation: @escaping @Sendable () async throws(DriverError) -> T) async -> Result<T, DriverError>? {
        let gate = Gate<Result<T, DriverError>?>()
        return await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, DriverError>?, Never>) in
            gate.install(continuation)
            Task {
                let result: Result<T, DriverError>
                do throws(DriverError) { result = .success(try await operation()) } catch { result = .failure(error) }
                gate.resume(with: result)
            }
            let timer = Task {
                try? await Task.sleep(for: .milliseconds(milliseconds))
                // The abandoned operation is deliberately not cancelled: cancelling URLSession's async data(for:) on
                // Linux can deadlock against its own completion (both wait on the task's queue) and freeze the
                // cooperative pool. It ends by itself when the scenario's target shuts down and closes the connection.
                if !Task.isCancelled { gate.resume(with: nil) }
            }
            gate.onFinish = { timer.cancel() }
        }
    }

    /// Resumes a continuation exactly once, from whichever side finishes first.
    final class Gate<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Value, Never>?
        private var finish: (@Sendable () -> Void)?

        /// Called once the continuation has been resumed (or right away if it already was).
        var onFinish: (@Sendable () -> Void)? {
            get { lock.withLock { finish } }
            set {
                let runNow = lock.withLock { () -> Bool in
                    if continuation == nil { return true }
                    finish = newValue
                    return false
                }
                if runNow { newValue?() }
            }
        }

        func install(_ c: CheckedContinuation<Value, Never>) {
            lock.withLock { continuation = c }
        }

        @discardableResult
        func resume(with value: Value) -> Bool {
            let c = lock.withLock { () -> CheckedContinuation<Value, Never>? in
                let c = continuation
                continuation = nil
                return c
            }
            guard let c else { return false }
            c.resume(returning: value)
            lock.withLock { () -> (@Sendable () -> Void)? in
                let f = finish
                finish = nil
                return f
            }?()
            return true
        }
    }
}
