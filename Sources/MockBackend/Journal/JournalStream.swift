/// Live delivery of journal entries to subscribers (the admin event stream).
///
/// Recording happens on event loops, so publishing never waits for a reader: each subscriber has a bounded
/// buffer, and entries that do not fit are dropped and counted instead of holding up the server.
public final class JournalStream: Sendable {
    /// How many entries a subscriber may have waiting before new ones are dropped.
    public static let defaultCapacity = 2048

    private struct State {
        var subscribers: [Int: JournalSubscription] = [:]
        var nextID = 0
    }

    private let state = Locked(State())

    /// An empty stream.
    public init() {}

    /// How many subscribers are attached right now.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Attaches a subscriber; `wake` runs (outside any lock) when its buffer goes from empty to non-empty.
    public func subscribe(capacity: Int = JournalStream.defaultCapacity, wake: @escaping @Sendable () -> Void) -> JournalSubscription {
        state.withLock { s in
            let id = s.nextID
            s.nextID += 1
            let subscription = JournalSubscription(capacity: capacity, wake: wake, cancel: { [weak self] in
                _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
            })
            s.subscribers[id] = subscription
            return subscription
        }
    }

    /// Offers an entry to every subscriber; never blocks on a reader.
    func publish(_ entry: JournalEntry) {
        let subscribers = state.withLock { s in s.subscribers.isEmpty ? [] : Array(s.subscribers.values) }
        for subscriber in subscribers { subscriber.offer(entry) }
    }
}

/// One reader of a `JournalStream`: a bounded buffer of entries waiting to be sent, and the count of those dropped.
public final class JournalSubscription: Sendable {
    private struct State {
        var buffer: [JournalEntry] = []
        var dropped = 0
        var signalled = false
        var cancelled = false
    }

    /// The most entries kept waiting.
    public let capacity: Int
    private let state = Locked(State())
    private let wake: @Sendable () -> Void
    private let onCancel: @Sendable () -> Void

    init(capacity: Int, wake: @escaping @Sendable () -> Void, cancel: @escaping @Sendable () -> Void) {
        self.capacity = max(1, capacity)
        self.wake = wake
        self.onCancel = cancel
    }

    /// Buffers the entry, or counts it as dropped when the buffer is full.
    func offer(_ entry: JournalEntry) {
        let shouldWake = state.withLock { s -> Bool in
            if s.cancelled { return false }
            if s.buffer.count >= capacity {
                s.dropped += 1
                return false
            }
            s.buffer.append(entry)
            if s.signalled { return false }
            s.signalled = true
            return true
        }
        if shouldWake { wake() }
    }

    /// Takes every waiting entry and the number dropped since the last call; the next offer wakes the reader again.
    public func drain() -> (entries: [JournalEntry], dropped: Int) {
        state.withLock { s in
            let taken = (s.buffer, s.dropped)
            s.buffer = []
            s.dropped = 0
            s.signalled = false
            return taken
        }
    }

    /// Detaches from the stream; later entries are ignored.
    public func cancel() {
        state.withLock { s in
            s.cancelled = true
            s.buffer = []
        }
        onCancel()
    }
}
