import ContractModel
import NIOCore
import NIOHTTP1

/// The life of the streamed proxy exchanges of one client connection as a value: each event (a request part from the
/// client, the target connection made or failed, a part of the target's answer, the target gone, a timer, the client
/// gone) goes in, and what the connection must do next comes out as an `Action`.
///
/// It owns no channel, no timer and no clock, so every path of an exchange, failures included, can be driven in a test
/// without a socket (`ProxyExchangeStateMachineTests`); `StreamingProxyHandler` is the thin NIO shell that feeds it
/// events and carries out its actions. The shape follows `HTTPConnectionStateMachine` (after postgres-nio).
///
/// A JSON answer up to `Exchange.jsonValidationLimit` is held until complete, so its violation headers can go in its
/// head; any other answer streams at once and is checked from its head. The contract check is the handler's (it needs
/// the server's observer): the machine asks for it with `.check` and goes on when `checked(_:)` brings the violations.
struct ProxyExchangeStateMachine {
    /// Which exchange an event from the target or a timer belongs to: target connections and timers outlive their
    /// exchange, and their late events must not touch the next one.
    struct ExchangeID: Hashable, Sendable {
        let value: UInt64
    }

    /// A request head the proxy streams, with what the handler worked out about it.
    struct Head {
        /// The request as the client sent it.
        var request: MockRequest
        /// The contract operation it matches, if any (for the journal).
        var contract: String?
        /// Whether the client's connection stays open after this exchange.
        var keepAlive: Bool
        /// The head as the target gets it: its headers forwarded, its framing restated, its target rebased.
        var upstreamHead: HTTPRequestHead
        /// When it arrived.
        var started: ContinuousClock.Instant
    }

    /// What the contract check must look at: the exchange so far and the answer as the client is to get it.
    struct Check {
        var transcript: ProxyTranscript
        var status: Int
        var headers: HTTPHeaders
        /// The whole answer body when it is held (or a failure answer); nil for a streamed answer, checked from its head.
        var body: ByteBuffer?
    }

    /// A journal entry to record: the exchange as it went, and how the answer ended.
    struct Record {
        var transcript: ProxyTranscript
        /// Nil when the client went away before any answer.
        var status: Int?
        var headers: HTTPHeaders
        var violations: [ExchangeViolation]
    }

    /// A streamed answer's head, ready for the client.
    struct StreamedHead {
        var head: HTTPResponseHead
        /// Body chunks already in hand (a JSON answer that outgrew the hold), to write after the head.
        var body: [ByteBuffer]
        /// Whether the body watch must be armed now (it already is when a held answer turned streamed).
        var armsBodyWatch: Bool
    }

    /// The end of an exchange whose answer ends properly: what is left to write, the journal entry, what becomes of
    /// the two connections.
    struct Finish {
        /// The head still to write (a held or failure answer); nil when it went out streaming.
        var head: HTTPResponseHead?
        /// The body still to write; nil when there is none (or it streamed).
        var body: ByteBuffer?
        var record: Record
        /// Whether the target connection may carry the next request: it said keep-alive and got the whole request.
        var keepsUpstream: Bool
        /// Whether the client's connection closes once the answer's end is written.
        var closesClient: Bool
        /// The failure answered (502/504), if the target failed.
        var failure: ProxyError?
    }

    /// What the connection must do next.
    enum Action {
        /// Nothing: the event changed no more than the state (a part kept for the target, a late event).
        case none
        /// Hand the request part on to the buffering path (`HTTPConnectionHandler`), unchanged.
        case passThrough
        /// An exchange begins: arm the answer timer (`answerTimedOut` when it fires), take the spare target connection
        /// if it is open or connect anew, then report `upstreamConnected` or `upstreamConnectFailed`.
        case connect(ExchangeID)
        /// The target connection just made now carries the exchange: write these parts and flush (a failed write is
        /// `upstreamWriteFailed`). Returned to the caller of `upstreamConnected`, which holds the connection.
        case sendQueued([HTTPClientRequestPart])
        /// The target connection just made came too late (its exchange is over): close it.
        case dropUpstream
        /// Write and flush the part to the target connection; stop reading the client while that connection is full.
        case send(HTTPClientRequestPart)
        /// The answer's head is in: replace the timer by the body watch, which reports `bodyWatchEnded` after the delay.
        case watchBody(after: TimeAmount)
        /// Run the contract check on this and pass its violations to `checked(_:)` at once.
        case check(Check)
        /// Write and flush the streamed answer's head (and the chunks in hand).
        case streamHead(StreamedHead)
        /// Write and flush a body chunk to the client; stop reading the target while the client is full.
        case writeBody(ByteBuffer)
        /// Write what is left of the answer, release the target connection, record, write the end (then maybe close).
        case finish(Finish)
        /// A streamed answer cannot end properly (the target closed or stalled mid-body): the only honest signal left is
        /// to cut the client's connection. Close the target connection, record, close the client's connection.
        case cut(Record)
        /// The client went away mid-exchange: stop the timer, close the target connection, record.
        case abandon(Record)
        /// The target connection can take more: read the client again.
        case resumeClientReads
        /// The client can take more: read the target again.
        case resumeUpstreamReads
    }

    /// Where the exchange's answer is.
    enum Answer {
        /// No answer head from the target yet.
        case waiting
        /// A JSON answer being collected whole.
        case holding(HTTPResponseHead, ByteBuffer)
        /// A `.check` went out; `checked(_:)` goes on from here.
        case checking(Pending)
        /// The head went to the client; body chunks follow as they come.
        case streaming(HTTPResponseHead, violations: [ExchangeViolation])
    }

    /// What follows a check.
    enum Pending {
        /// Stream the answer with this head from the target.
        case stream(HTTPResponseHead, body: [ByteBuffer], armsBodyWatch: Bool)
        /// Write the held answer: the target's head, its headers without hop-by-hop ones, its body.
        case finishHeld(HTTPResponseHead, headers: HTTPHeaders, body: ByteBuffer)
        /// Answer the failure.
        case fail(ProxyError, MockResponse)
    }

    /// The exchange going on.
    struct Ongoing {
        let id: ExchangeID
        var transcript: ProxyTranscript
        /// Whether the client's connection stays open after it; a failure before the request ended closes it.
        var keepAlive: Bool
        var requestEnded = false
        /// Whether a target connection carries it; until then its parts wait in `queued`.
        var attached = false
        var queued: [HTTPClientRequestPart]
        var answer = Answer.waiting
    }

    /// How long the target may take to answer, and to send more of an answer's body.
    let timeout: TimeAmount
    /// The target, as failures name it.
    let target: String
    /// How many bytes of an answer body the journal keeps.
    let journalBodyLimit: Int
    /// Whether the request being read goes the buffering way (its parts pass through to `HTTPConnectionHandler`).
    private(set) var passingThrough = false
    private(set) var ongoing: Ongoing?
    private var lastID: UInt64 = 0

    init(timeout: TimeAmount, target: String, journalBodyLimit: Int) {
        self.timeout = timeout
        self.target = target
        self.journalBodyLimit = journalBodyLimit
    }

    /// The exchange going on, if any.
    var current: ExchangeID? { ongoing?.id }

    /// The request of the exchange going on, for log lines.
    var currentRequest: MockRequest? { ongoing?.transcript.request }

    /// Whether the client's silence is expected: while an exchange goes on it waits for the target.
    var expectsClientSilence: Bool { ongoing != nil }

    private var timeoutSeconds: Double { Double(timeout.nanoseconds) / 1e9 }

    // MARK: From the client

    /// A request head arrived. `head` is nil when it must go the buffering way (admin, faults, unforwardable target);
    /// it is only asked for when no exchange goes on (a request that comes meanwhile goes the buffering way too).
    mutating func receivedHead(_ head: @autoclosure () -> Head?) -> Action {
        guard ongoing == nil, let head = head() else {
            passingThrough = true
            return .passThrough
        }
        lastID += 1
        let id = ExchangeID(value: lastID)
        let transcript = ProxyTranscript(request: head.request, contract: head.contract, started: head.started, journalBodyLimit: journalBodyLimit)
        ongoing = Ongoing(id: id, transcript: transcript, keepAlive: head.keepAlive, queued: [.head(head.upstreamHead)])
        return .connect(id)
    }

    /// A request body chunk arrived: sent on, or kept until the target connection is there.
    mutating func receivedBody(_ chunk: ByteBuffer) -> Action {
        if passingThrough { return .passThrough }
        guard ongoing != nil else { return .none }
        ongoing?.transcript.addRequestBody(chunk)
        return forward(.body(.byteBuffer(chunk)))
    }

    /// The request ended.
    mutating func receivedEnd() -> Action {
        if passingThrough {
            passingThrough = false
            return .passThrough
        }
        guard ongoing != nil else { return .none }
        ongoing?.requestEnded = true
        return forward(.end(nil))
    }

    private mutating func forward(_ part: HTTPClientRequestPart) -> Action {
        guard ongoing?.attached == true else {
            ongoing?.queued.append(part)
            return .none
        }
        return .send(part)
    }

    /// The client's socket can take more again.
    func clientBecameWritable() -> Action {
        ongoing?.attached == true ? .resumeUpstreamReads : .none
    }

    /// The client's connection went inactive: an exchange going on ends unanswered, and is journaled so.
    mutating func clientClosed() -> Action {
        passingThrough = false
        guard let exchange = ongoing else { return .none }
        ongoing = nil
        return .abandon(Record(transcript: exchange.transcript, status: nil, headers: [:], violations: []))
    }

    // MARK: The target connection

    /// A target connection is there for exchange `id` (new, or the spare): it gets the parts kept so far.
    mutating func upstreamConnected(_ id: ExchangeID) -> Action {
        guard var exchange = ongoing, exchange.id == id, !exchange.attached else { return .dropUpstream }
        let parts = exchange.queued
        exchange.attached = true
        exchange.queued = []
        ongoing = exchange
        return .sendQueued(parts)
    }

    /// The target could not be reached.
    mutating func upstreamConnectFailed(_ id: ExchangeID, reason: String) -> Action {
        fail(id, .upstreamFailed(target: target, reason: reason))
    }

    /// The target connection refused a request part (`UpstreamRequestGuard`): nothing else would end the exchange,
    /// and the client would wait for the whole timeout.
    mutating func upstreamWriteFailed(_ id: ExchangeID, reason: String) -> Action {
        fail(id, .upstreamFailed(target: target, reason: "the request could not be written: \(reason)"))
    }

    /// The target connection can take more again.
    func upstreamBecameWritable(_ id: ExchangeID) -> Action {
        ongoing?.id == id ? .resumeClientReads : .none
    }

    /// The target connection closed: before a complete answer that is a 502 while none went out, else a cut.
    mutating func upstreamClosed(_ id: ExchangeID) -> Action {
        guard let exchange = ongoing, exchange.id == id else { return .none }
        switch exchange.answer {
        case .waiting, .holding:
            return fail(id, .upstreamFailed(target: target, reason: "the connection closed before a complete answer"))
        case .streaming(let head, let violations):
            return cut(head, violations)
        case .checking:
            return .none
        }
    }

    // MARK: The target's answer

    /// The answer's head arrived: a small JSON answer is held for its check, any other streams at once. Interim
    /// answers such as 100 Continue are not the answer.
    mutating func upstreamHead(_ id: ExchangeID, _ head: HTTPResponseHead) -> Action {
        guard ongoing?.id == id, case .waiting? = ongoing?.answer, head.status.code >= 200 else { return .none }
        let declared = head.headers.first(name: "content-length").flatMap(Int.init)
        if Exchange.isJSON(head.headers.first(name: "content-type")), (declared ?? 0) <= Exchange.jsonValidationLimit {
            ongoing?.answer = .holding(head, ByteBufferAllocator().buffer(capacity: declared ?? 0))
            return .watchBody(after: timeout)
        }
        return beginStreaming(head, then: [], armsBodyWatch: true)
    }

    /// A part of the answer's body arrived: held, or sent on. A held answer that outgrows the hold streams from here.
    mutating func upstreamBody(_ id: ExchangeID, _ chunk: ByteBuffer) -> Action {
        guard ongoing?.id == id else { return .none }
        switch ongoing?.answer {
        case .holding(let head, var held)?:
            if held.readableBytes + chunk.readableBytes > Exchange.jsonValidationLimit {
                return beginStreaming(head, then: [held, chunk], armsBodyWatch: false)
            }
            // Drop the state's copy first, so appending does not copy the whole buffer.
            ongoing?.answer = .waiting
            var chunk = chunk
            held.writeBuffer(&chunk)
            ongoing?.answer = .holding(head, held)
            return .none
        case .streaming?:
            ongoing?.transcript.addResponseBody(chunk)
            guard chunk.readableBytes > 0, ongoing?.transcript.request.method != .HEAD else { return .none }
            return .writeBody(chunk)
        case .waiting?, .checking?, nil:
            return .none
        }
    }

    /// The answer ended: a held answer is checked, then written whole; a streamed one ends.
    mutating func upstreamEnd(_ id: ExchangeID) -> Action {
        guard var exchange = ongoing, exchange.id == id else { return .none }
        switch exchange.answer {
        case .holding(let head, let held):
            var headers = head.headers
            FaultProxy.removeHopByHop(&headers)
            exchange.transcript.addResponseBody(held)
            exchange.answer = .checking(.finishHeld(head, headers: headers, body: held))
            ongoing = exchange
            return .check(Check(transcript: exchange.transcript, status: Int(head.status.code), headers: headers, body: held))
        case .streaming(let head, let violations):
            var headers = head.headers
            FaultProxy.removeHopByHop(&headers)
            let record = Record(transcript: exchange.transcript, status: Int(head.status.code), headers: headers, violations: violations)
            return finish(Finish(head: nil, body: nil, record: record, keepsUpstream: head.isKeepAlive && exchange.requestEnded,
                                 closesClient: !exchange.keepAlive, failure: nil))
        case .waiting, .checking:
            return .none
        }
    }

    /// The check asked for by `.check` found `violations`: the answer goes on with them in its head (and journal).
    mutating func checked(_ violations: [ExchangeViolation]) -> Action {
        guard let exchange = ongoing, case .checking(let pending) = exchange.answer else { return .none }
        let connection = exchange.keepAlive ? "keep-alive" : "close"
        switch pending {
        case .stream(let head, let body, let armsBodyWatch):
            var headers = head.headers
            let length = headers.first(name: "content-length")
            FaultProxy.removeHopByHop(&headers)
            if let length { headers.add(name: "content-length", value: length) }
            ViolationHeader.add(violations, to: &headers)
            headers.add(name: "connection", value: connection)
            ongoing?.answer = .streaming(head, violations: violations)
            return .streamHead(StreamedHead(head: HTTPResponseHead(version: .http1_1, status: head.status, headers: headers),
                                            body: body, armsBodyWatch: armsBodyWatch))
        case .finishHeld(let head, var headers, let body):
            headers.add(name: "content-length", value: "\(body.readableBytes)")
            ViolationHeader.add(violations, to: &headers)
            headers.add(name: "connection", value: connection)
            let writes = body.readableBytes > 0 && exchange.transcript.request.method != .HEAD
            let record = Record(transcript: exchange.transcript, status: Int(head.status.code), headers: headers, violations: violations)
            return finish(Finish(head: HTTPResponseHead(version: .http1_1, status: head.status, headers: headers),
                                 body: writes ? body : nil, record: record,
                                 keepsUpstream: head.isKeepAlive && exchange.requestEnded, closesClient: !exchange.keepAlive, failure: nil))
        case .fail(let error, let response):
            var headers = response.headers
            headers.add(name: "content-length", value: "\(response.body.readableBytes)")
            headers.add(name: "connection", value: connection)
            let record = Record(transcript: exchange.transcript, status: Int(response.status.code), headers: response.headers, violations: violations)
            return finish(Finish(head: HTTPResponseHead(version: .http1_1, status: response.status, headers: headers), body: response.body,
                                 record: record, keepsUpstream: false, closesClient: !exchange.keepAlive, failure: error))
        }
    }

    private mutating func beginStreaming(_ head: HTTPResponseHead, then body: [ByteBuffer], armsBodyWatch: Bool) -> Action {
        guard let before = ongoing?.transcript else { return .none }
        var headers = head.headers
        FaultProxy.removeHopByHop(&headers)
        // The check sees the exchange as it was before these chunks; the journal gets them.
        for chunk in body { ongoing?.transcript.addResponseBody(chunk) }
        let writes = before.request.method == .HEAD ? [] : body.filter { $0.readableBytes > 0 }
        ongoing?.answer = .checking(.stream(head, body: writes, armsBodyWatch: armsBodyWatch))
        return .check(Check(transcript: before, status: Int(head.status.code), headers: headers, body: nil))
    }

    // MARK: Timers

    /// The answer timer fired before the answer's head: 504.
    mutating func answerTimedOut(_ id: ExchangeID) -> Action {
        fail(id, .upstreamTimedOut(target: target, seconds: timeoutSeconds))
    }

    /// The body watch fired, `quiet` after the target last sent part of the answer. The target must send something
    /// every `timeout`; while the client is the slow one (its socket is full, so the target is paused), the target is
    /// not blamed. A stalled held answer becomes a 504 (nothing went out yet); a streamed one can only be cut.
    mutating func bodyWatchEnded(_ id: ExchangeID, quiet: TimeAmount, clientWritable: Bool) -> Action {
        guard let exchange = ongoing, exchange.id == id else { return .none }
        if quiet < timeout || !clientWritable {
            return .watchBody(after: quiet < timeout ? timeout - quiet : timeout)
        }
        switch exchange.answer {
        case .holding:
            return fail(id, .upstreamBodyStalled(target: target, seconds: timeoutSeconds))
        case .streaming(let head, let violations):
            return cut(head, violations)
        case .waiting, .checking:
            return .none
        }
    }

    // MARK: Endings

    /// Answers 502/504 as the buffering proxy does, when no head has gone out yet.
    private mutating func fail(_ id: ExchangeID, _ error: ProxyError) -> Action {
        guard var exchange = ongoing, exchange.id == id else { return .none }
        switch exchange.answer {
        case .waiting, .holding: break
        case .checking, .streaming: return .none
        }
        // A client still sending its body (perhaps a trickle the target waited on) would otherwise keep the connection for ever.
        if !exchange.requestEnded { exchange.keepAlive = false }
        let response = FaultProxy.failure(error.isTimeout ? .gatewayTimeout : .badGateway, error)
        exchange.transcript.addResponseBody(response.body)
        exchange.answer = .checking(.fail(error, response))
        ongoing = exchange
        return .check(Check(transcript: exchange.transcript, status: Int(response.status.code), headers: response.headers, body: response.body))
    }

    private mutating func cut(_ head: HTTPResponseHead, _ violations: [ExchangeViolation]) -> Action {
        guard let exchange = ongoing else { return .none }
        ongoing = nil
        return .cut(Record(transcript: exchange.transcript, status: Int(head.status.code), headers: head.headers, violations: violations))
    }

    private mutating func finish(_ finish: Finish) -> Action {
        ongoing = nil
        return .finish(finish)
    }
}
