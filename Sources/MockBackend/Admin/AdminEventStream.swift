import ContractModel
import Foundation
import NIOCore
import NIOHTTP1

/// `GET /__spotcheck/events`: journal entries as server-sent events, written straight to the connection.
///
/// Each stream holds one write in flight at a time; while the reader is slow, summary frames wait in the subscription's
/// buffer (bounded in bytes and entries) and overflow is dropped and announced (`event: dropped`), so the server never
/// waits for a page and a reader that stops reading holds at most two buffers' worth: the one waiting and the one in flight.
final class AdminEventStream: Sendable {
    /// What the client asked for: entries after `since`, at most `backlog` already recorded ones to start with, and its buffer.
    struct Options: Sendable {
        var since: Int
        var backlog: Int
        var capacity: Int
        var byteCapacity: Int
    }

    /// The range `?bufferBytes=` is clamped to: room for a few summaries at least, 16 MiB at most.
    static let byteCapacityRange = 4096...(16 * 1024 * 1024)

    private struct State {
        var inFlight = false
        var lastSent = 0
        var closed = false
        var heartbeat: RepeatedTask?
    }

    private let channel: any Channel
    private let state = Locked(State())
    private let subscription = Locked<JournalSubscription?>(nil)
    /// How often a comment line is sent so proxies keep the connection and a vanished reader is noticed.
    static let heartbeat = TimeAmount.seconds(15)

    private init(channel: any Channel) {
        self.channel = channel
    }

    /// Parses the stream options from the query (`since`, `backlog`, `buffer`, `bufferBytes`) and the `Last-Event-ID` header.
    static func options(for request: MockRequest) -> Options {
        let query = AdminQuery(request.query)
        let since = query.int("since") ?? request.headers.first(name: "last-event-id").flatMap { Int($0) } ?? 0
        return Options(since: max(0, since), backlog: min(max(0, query.int("backlog") ?? 200), 1000),
                       capacity: min(max(1, query.int("buffer") ?? JournalStream.defaultCapacity), 100_000),
                       byteCapacity: min(max(byteCapacityRange.lowerBound, query.int("bufferBytes") ?? JournalStream.defaultByteCapacity),
                                         byteCapacityRange.upperBound))
    }

    /// Sends the head and backlog on `channel`, then every new entry until the connection closes.
    static func start(on channel: any Channel, journal: Journal, options: Options) {
        let stream = AdminEventStream(channel: channel)
        let subscription = journal.stream.subscribe(capacity: options.capacity, byteCapacity: options.byteCapacity) { [weak stream] in
            guard let stream else { return }
            stream.channel.eventLoop.execute { stream.pump() }
        }
        stream.subscription.withLock { $0 = subscription }
        // Subscribed before the backlog is read, so nothing recorded in between is missed; `lastSent` skips doubles.
        let wanted = journal.entries().filter { $0.sequence > options.since }.suffix(options.backlog)
        let backlog = Self.backlog(wanted, byteCapacity: options.byteCapacity)
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "text/event-stream; charset=utf-8")
        headers.add(name: "cache-control", value: "no-cache")
        headers.add(name: "x-accel-buffering", value: "no")
        AdminSecurityHeaders.apply(to: &headers)
        channel.write(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)), promise: nil)
        var first = ByteBuffer(string: "retry: 1000\n\n")
        stream.encode(backlog, dropped: wanted.count - backlog.count, into: &first)
        stream.state.withLock { $0.lastSent = backlog.last?.sequence ?? options.since }
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(first)), promise: nil)
        let task = channel.eventLoop.scheduleRepeatedTask(initialDelay: heartbeat, delay: heartbeat) { [weak stream] _ in
            stream?.ping()
        }
        stream.state.withLock { $0.heartbeat = task }
        channel.closeFuture.whenComplete { _ in stream.close() }
    }

    /// Writes what is waiting, one write at a time; runs on the channel's event loop.
    private func pump() {
        let go = state.withLock { s -> Bool in
            if s.inFlight || s.closed { return false }
            s.inFlight = true
            return true
        }
        guard go, let subscription = subscription.withLock({ $0 }) else { return }
        let (frames, dropped) = subscription.drain()
        let lastSent = state.withLock { $0.lastSent }
        let fresh = frames.filter { $0.sequence > lastSent }
        guard !fresh.isEmpty || dropped > 0 else {
            state.withLock { $0.inFlight = false }
            return
        }
        var buffer = ByteBuffer()
        encode(fresh, dropped: dropped, into: &buffer)
        if let last = fresh.last { state.withLock { $0.lastSent = last.sequence } }
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer))).whenComplete { [weak self] result in
            guard let self else { return }
            self.state.withLock { $0.inFlight = false }
            if case .failure = result {
                self.channel.close(promise: nil)
            } else {
                self.pump()
            }
        }
    }

    private func ping() {
        guard !state.withLock({ $0.inFlight || $0.closed }) else { return }
        // A reader whose socket is full learns nothing from a ping, and pings queued behind it would grow without bound.
        guard channel.isWritable else { return }
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: ": ping\n\n"))), promise: nil)
    }

    /// The newest backlog frames that fit in one buffer, oldest first.
    private static func backlog(_ entries: ArraySlice<JournalEntry>, byteCapacity: Int) -> [JournalEventFrame] {
        var frames: [JournalEventFrame] = []
        var bytes = 0
        for entry in entries.reversed() {
            let frame = JournalEventFrame(entry)
            if !frames.isEmpty && bytes + frame.bytes.count > byteCapacity { break }
            bytes += frame.bytes.count
            frames.append(frame)
        }
        return frames.reversed()
    }

    /// The frames in order, after an `event: dropped` when some were lost.
    private func encode(_ frames: [JournalEventFrame], dropped: Int, into buffer: inout ByteBuffer) {
        if dropped > 0 {
            buffer.writeString("event: dropped\ndata: {\"dropped\":\(dropped)}\n\n")
        }
        for frame in frames { buffer.writeBytes(frame.bytes) }
    }

    private func close() {
        let task = state.withLock { s -> RepeatedTask? in
            s.closed = true
            defer { s.heartbeat = nil }
            return s.heartbeat
        }
        task?.cancel()
        subscription.withLock { s in
            s?.cancel()
            s = nil
        }
    }
}
