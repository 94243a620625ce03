import ContractModel
/// Live delivery of journal entries to subscribers (the admin event stream).
///
/// Recording happens on event loops, so publishing never waits for a reader: each subscriber has a buffer bounded
/// in bytes and in entries, and frames that do not fit are dropped and counted instead of holding up the server.
/// Subscribers get summary frames, never bodies, so a reader that stops reading costs at most its byte cap.
public final class JournalStream: Sendable {
    /// How many entries a subscriber may have waiting before new ones are dropped.
    public static let defaultCapacity = 2048
    /// How many bytes of frames a subscriber may have waiting before new ones are dropped (about 2,000 summaries).
    public static let defaultByteCapacity = 1024 * 1024

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
    public func subscribe(capacity: Int = JournalStream.defaultCapacity, byteCapacity: Int = JournalStream.defaultByteCapacity,
                          wake: @escaping @Sendable () -> Void) -> JournalSubscription {
        state.withLock { s in
            let id = s.nextID
            s.nextID += 1
            let subscription = JournalSubscription(capacity: capacity, byteCapacity: byteCapacity, wake: wake, cancel: { [weak self] in
                _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
            })
            s.subscribers[id] = subscription
            return subscription
        }
    }

    /// Offers an entry's frame to every subscriber; never blocks on a reader, and encodes nothing when there is none.
    func publish(_ entry: JournalEntry) {
        let subscribers = state.withLock { s in s.subscribers.isEmpty ? [] : Array(s.subscribers.values) }
        guard !subscribers.isEmpty else { return }
        let frame = JournalEventFrame(entry)
        for subscriber in subscribers { subscriber.offer(frame) }
    }
}

/// One reader of a `JournalStream`: a buffer of frames waiting to be sent, bounded in entries and bytes, and the count of those dropped.
public final class JournalSubscription: Sendable {
    private struct State {
        var buffer: [JournalEventFrame] = []
        var bytes = 0
        var dropped = 0
        var signalled = false
        var cancelled = false
    }

    /// The most frames kept waiting.
    public let capacity: Int
    /// The most bytes of frames kept waiting; one frame larger than this is still taken into an empty buffer.
    public let byteCapacity: Int
    private let state = Locked(State())
    private let wake: @Sendable () -> Void
    private let onCancel: @Sendable () -> Void

    init(capacity: Int, byteCapacity: Int, wake: @escaping @Sendable () -> Void, cancel: @escaping @Sendable () -> Void) {
        self.capacity = max(1, capacity)
        self.byteCapacity = max(1, byteCapacity)
        self.wake = wake
        self.onCancel = cancel
    }

    /// Buffers the frame, or counts it as dropped when the buffer is full in entries or bytes.
    func offer(_ frame: JournalEventFrame) {
        let shouldWake = state.withLock { s -> Bool in
            if s.cancelled { return false }
            let fits = s.buffer.isEmpty || s.bytes + frame.bytes.count <= byteCapacity
            if s.buffer.count >= capacity || !fits {
                s.dropped += 1
                return false
            }
            s.buffer.append(frame)
            s.bytes += frame.bytes.count
            if s.signalled { return false }
            s.signalled = true
            return true
        }
        if shouldWake { wake() }
    }

    /// How many bytes of frames are waiting right now.
    public var bufferedBytes: Int { state.withLock { $0.bytes } }

    /// Takes every waiting frame and the number dropped since the last call; the next offer wakes the reader again.
    public func drain() -> (frames: [JournalEventFrame], dropped: Int) {
        state.withLock { s in
            let taken = (s.buffer, s.dropped)
            s.buffer = []
            s.bytes = 0
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
            s.bytes = 0
        }
        onCancel()
    }
}
