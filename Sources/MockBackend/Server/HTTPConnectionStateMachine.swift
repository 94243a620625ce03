import ContractModel
import NIOCore

/// The life of one HTTP/1.1 connection as a value: each event the connection sees (a request part, a timer, an
/// answer ready, a write done) goes in, and the one thing the connection must do next comes out as an `Action`.
///
/// It owns no socket, no timer and no clock, so every state can be driven in a test without a network
/// (`HTTPConnectionStateMachineTests`); `HTTPConnectionHandler` is the thin NIO shell that feeds it events and carries
/// out its actions. The shape follows postgres-nio's `ConnectionStateMachine`.
struct HTTPConnectionStateMachine {
    /// A request head as read, with what the server decided about it before any body arrived.
    struct Head {
        /// The request, its body still empty.
        var request: MockRequest
        /// The most body bytes this request may bring (the responder's or the admin API's limit).
        var limit: Int
        /// The `Content-Length` the client declared, if any: over the limit, the request is refused before its body.
        var declaredLength: Int?
        /// Whether the client asked for `100 Continue` before it sends the body.
        var expectsContinue: Bool
        /// Whether the connection stays open after the answer (HTTP/1.1 default, `Connection` header).
        var keepAlive: Bool
        /// Whether the admin API answers it rather than the backend.
        var admin: Bool
        /// When the head arrived, for the journal's duration.
        var started: ContinuousClock.Instant
    }

    /// Where the connection is.
    enum State {
        /// Waiting for a request head.
        case idle
        /// Reading the body of a request that fits its limit.
        case receiving(Head)
        /// The request was complete; the answer is being produced or written (backend, delay, admin, a slow write).
        case responding
        /// A fault decided never to answer, or the event stream owns the connection: only its closing matters.
        case stalled
        /// The body was over the limit: the rest is discarded and the connection closes after the answer.
        case rejecting(endReceived: Bool, answered: Bool)
        /// The connection is gone or going.
        case closed
        /// Only while a body chunk is appended in place, so the buffer is not copied (never seen from outside).
        case modifying
    }

    /// What the connection must do next.
    enum Action {
        /// Nothing: the event changed no more than the state (or came too late to matter).
        case none
        /// Send `100 Continue` so the client sends its body.
        case sendContinue
        /// Arm the body-window timer; when it fires, call `bodyWindowEnded()`.
        case watchBody
        /// The body is over its limit: answer 413 (for `request`, its body dropped), then call `rejectionAnswered()`.
        case reject(MockRequest, started: ContinuousClock.Instant)
        /// The request is complete: produce the backend's answer (through the fault layer).
        case answer(MockRequest, keepAlive: Bool, started: ContinuousClock.Instant)
        /// The request is complete: the admin API answers it.
        case answerAdmin(MockRequest, keepAlive: Bool)
        /// The body trickled: log it and close without an answer.
        case cutSlowBody(MockRequest, minimumBytes: Int)
        /// Write the answer (or the last part of one written piece by piece); once written, close if `closeAfterward`.
        case write(closeAfterward: Bool)
        /// Write the 413 (saying the connection ends); once written, call `rejectionWritten()`.
        case writeRejection
        /// After the 413 is written and the body is still coming: keep reading it a while, then close.
        case lingerThenClose
        /// Close the connection.
        case close
        /// Abort the connection with a TCP reset.
        case reset
    }

    private(set) var state = State.idle
    /// How much of the body being received arrived in the current window; see `BodyProgress`.
    private var bodyProgress: BodyProgress
    /// Whether a body-window timer should be armed: from the first body chunk until the request leaves `receiving`, so
    /// bodiless requests pay nothing. The handler cancels its timer whenever this turns false.
    private(set) var watchesBody = false

    /// A connection waiting for its first request; a body must bring `minimumBodyBytes` per window.
    init(minimumBodyBytes: Int) {
        bodyProgress = BodyProgress(minimumBytes: minimumBodyBytes)
    }

    /// Whether the connection is gone: late timers and answers then do nothing.
    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    // MARK: Reading

    /// A request head arrived. Ignored unless idle (the pipelining helper holds the next request until the answer's end).
    mutating func receivedHead(_ head: Head) -> Action {
        guard case .idle = state else { return .none }
        if let declared = head.declaredLength, declared > head.limit {
            return reject(head)
        }
        state = .receiving(head)
        return head.expectsContinue ? .sendContinue : .none
    }

    /// A body chunk arrived: kept while the body fits its limit, refused once it does not.
    mutating func receivedBody(_ chunk: inout ByteBuffer) -> Action {
        guard case .receiving(var head) = state else { return .none }
        if head.request.body.readableBytes + chunk.readableBytes > head.limit {
            return reject(head)
        }
        bodyProgress.received(chunk.readableBytes)
        // Drop the state's copy first, so appending does not copy the whole buffer.
        state = .modifying
        head.request.body.writeBuffer(&chunk)
        state = .receiving(head)
        guard !watchesBody else { return .none }
        watchesBody = true
        return .watchBody
    }

    /// The request ended: a complete request is answered; a refused one closes once its 413 is out.
    mutating func receivedEnd() -> Action {
        switch state {
        case .receiving(let head):
            stopWatchingBody()
            state = .responding
            return head.admin ? .answerAdmin(head.request, keepAlive: head.keepAlive)
                : .answer(head.request, keepAlive: head.keepAlive, started: head.started)
        case .rejecting(_, let answered):
            if answered {
                state = .closed
                return .close
            }
            state = .rejecting(endReceived: true, answered: false)
            return .none
        default:
            return .none
        }
    }

    /// The body-window timer fired: a window that brought enough arms the next, one that did not cuts the connection.
    mutating func bodyWindowEnded() -> Action {
        guard watchesBody, case .receiving(let head) = state else { return .none }
        if bodyProgress.windowEnded() { return .watchBody }
        let minimum = bodyProgress.minimumBytes
        stopWatchingBody()
        state = .closed
        return .cutSlowBody(head.request, minimumBytes: minimum)
    }

    private mutating func reject(_ head: Head) -> Action {
        stopWatchingBody()
        state = .rejecting(endReceived: false, answered: false)
        var stripped = head.request
        stripped.body = ByteBuffer()
        return .reject(stripped, started: head.started)
    }

    private mutating func stopWatchingBody() {
        watchesBody = false
        bodyProgress = BodyProgress(minimumBytes: bodyProgress.minimumBytes)
    }

    // MARK: Answering

    /// The answer (or the last part of one written piece by piece) is ready: written unless the connection closed
    /// meanwhile. Keep-alive goes idle before the write, because the pipelining helper hands over the next request as
    /// soon as the answer's end is written.
    mutating func answerReady(keepAlive: Bool) -> Action {
        guard case .responding = state else { return .none }
        state = keepAlive ? .idle : .responding
        return .write(closeAfterward: !keepAlive)
    }

    /// The 413 is ready: written unless the connection closed meanwhile (the connection always closes after it).
    mutating func rejectionAnswered() -> Action {
        guard case .rejecting(let endReceived, _) = state else { return .none }
        state = .rejecting(endReceived: endReceived, answered: true)
        return .writeRejection
    }

    /// The 413 is written: close now if the body already ended, else after a linger so the client can read the answer.
    mutating func rejectionWritten() -> Action {
        switch state {
        case .rejecting(true, _):
            state = .closed
            return .close
        case .rejecting(false, _):
            return .lingerThenClose
        default:
            return .none
        }
    }

    /// Whether an answer of several parts (a slow or truncated write) may write its next part.
    var mayWriteAnswer: Bool {
        if case .responding = state { return true }
        return false
    }

    /// A fault withholds the answer, or the event stream takes the connection over: only its closing matters now.
    mutating func stall() {
        guard !isClosed else { return }
        state = .stalled
    }

    // MARK: Closing

    /// The connection must end (a drop fault, a write done with keep-alive off, an error, a linger over).
    mutating func close() -> Action {
        stopWatchingBody()
        state = .closed
        return .close
    }

    /// The connection must end with a TCP reset.
    mutating func reset() -> Action {
        stopWatchingBody()
        state = .closed
        return .reset
    }

    /// The server closes this connection itself (a refuse fault closes the listener and every connection).
    mutating func closedByServer() {
        stopWatchingBody()
        state = .closed
    }

    /// Nothing was read for the idle timeout: an idle or reading connection closes; one awaiting its answer (or stalled on
    /// purpose) expects the client's silence.
    mutating func idleTimeout() -> Action {
        switch state {
        case .idle, .receiving, .rejecting:
            return close()
        case .responding, .stalled, .closed, .modifying:
            return .none
        }
    }

    /// The channel went inactive.
    mutating func channelInactive() {
        stopWatchingBody()
        state = .closed
    }
}
