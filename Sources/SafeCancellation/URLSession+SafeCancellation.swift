import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// `data(for:)` whose caller can be cancelled safely: the caller gets `URLError(.cancelled)` at once, and the
    /// transfer itself is left to end by its own timeout.
    ///
    /// FoundationNetworking (Linux) cannot cancel transfers safely: cancelling a task suspended in `data(for:)` while
    /// its transfer completes deadlocks (the cancellation holds the task's status lock while `URLSessionTask.cancel()`
    /// waits on the session queue, which waits for that lock), and `URLSessionTask.cancel()` racing the completion
    /// traps ("a task that is not in the registry"). Never calling `cancel()` avoids both.
    public func dataCancellingSafely(for request: URLRequest) async throws -> (Data, URLResponse) {
        let box = ContinuationBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
                guard box.install(continuation) else { return }
                dataTask(with: request) { data, response, error in
                    if let data, let response {
                        box.finish(.success((data, response)))
                    } else {
                        box.finish(.failure(error ?? URLError(.badServerResponse)))
                    }
                }.resume()
            }
        } onCancel: {
            box.finish(.failure(URLError(.cancelled)))
        }
    }
}

/// Resumes the caller exactly once: with the transfer's result or, if the caller is cancelled first, with `.cancelled`.
private final class ContinuationBox: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<(Data, URLResponse), any Error>?
    private var early: Result<(Data, URLResponse), any Error>?

    /// Stores the continuation; resumes it at once (and returns false) when the caller was already cancelled.
    func install(_ continuation: CheckedContinuation<(Data, URLResponse), any Error>) -> Bool {
        let pending: Result<(Data, URLResponse), any Error>? = lock.withLock {
            if let early { return early }
            self.continuation = continuation
            return nil
        }
        guard let pending else { return true }
        continuation.resume(with: pending)
        return false
    }

    /// Resumes the caller with `result` unless it was resumed already.
    func finish(_ result: Result<(Data, URLResponse), any Error>) {
        let continuation: CheckedContinuation<(Data, URLResponse), any Error>? = lock.withLock {
            guard let waiting = self.continuation else {
                if early == nil { early = result }
                return nil
            }
            self.continuation = nil
            early = result
            return waiting
        }
        continuation?.resume(with: result)
    }
}
