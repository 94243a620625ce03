import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One HTTP/1.1 connection: reads requests (bounded by the responder's body limit), applies the fault layer, and writes answers.
final class HTTPConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        /// Waiting for a request head.
        case idle
        /// Reading the body of a request that fits the limit.
        case receiving(MockRequest, limit: Int, keepAlive: Bool, started: ContinuousClock.Instant, admin: Bool)
        /// The request was complete; the answer is being produced (backend, delay, admin).
        case responding
        /// A fault decided never to answer this connection.
        case stalled
        /// The body was over the limit: the rest is discarded and the connection closes after the answer.
        case rejecting(endReceived: Bool, answered: Bool)
        /// The connection is gone or going.
        case closed
    }

    private let server: MockServer
    private let adminOnly: Bool
    private var state = State.idle
    /// The one timer a connection can have at a time: the next slow-body chunk or the oversized-body linger.
    private var pending: Scheduled<Void>?
    /// Violations of the exchange being answered, sent as headers with its response head.
    private var violationHeaders: [ExchangeViolation] = []
    /// How much of the body being received arrived in the current window; see `BodyProgress`.
    private var bodyProgress: BodyProgress
    /// Ends each body window while a body arrives; armed by the first body chunk, so bodiless requests pay nothing.
    private var bodyWatch: Scheduled<Void>?

    init(server: MockServer, adminOnly: Bool) {
        self.server = server
        self.adminOnly = adminOnly
        self.bodyProgress = BodyProgress(minimumBytes: server.configuration.minimumBodyBytesPerWindow)
    }

    // MARK: Reading

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            guard case .idle = state else { return }
            receiveHead(head, context: context)
        case .body(var chunk):
            switch state {
            case .receiving(var request, let limit, let keepAlive, let started, let admin):
                if request.body.readableBytes + chunk.readableBytes > limit {
                    reject(request, started: started, endReceived: false, context: context)
                } else {
                    bodyProgress.received(chunk.readableBytes)
                    if bodyWatch == nil { watchBody(context: context) }
                    // Drop the state's copy first so appending does not copy the whole buffer.
                    state = .responding
                    request.body.writeBuffer(&chunk)
                    state = .receiving(request, limit: limit, keepAlive: keepAlive, started: started, admin: admin)
                }
            default:
                break
            }
        case .end:
            stopWatchingBody()
            switch state {
            case .receiving(let request, _, let keepAlive, let started, let admin):
                state = .responding
                if admin {
                    answerAdmin(request, keepAlive: keepAlive, context: context)
                } else {
                    answer(request, keepAlive: keepAlive, started: started, context: context)
                }
            case .rejecting(_, let answered):
                if answered {
                    close(context)
                } else {
                    state = .rejecting(endReceived: true, answered: false)
                }
            default:
                break
            }
        }
    }

    private func receiveHead(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let started = ContinuousClock.now
        let request = MockRequest(method: head.method, uri: head.uri, headers: head.headers,
                                  remoteAddress: context.channel.remoteAddress?.description)
        let adminPath = request.path.hasPrefix(AdminAPI.prefix)
        let admin = adminPath && (adminOnly || server.configuration.adminOnMainPort)
        // The admin-only port answers 404 to anything else, so it never asks the backend for a limit.
        let limit = adminPath || adminOnly ? AdminAPI.bodyLimit : server.responder.bodyLimit(for: request)
        if let declared = head.headers.first(name: "content-length").flatMap(Int.init), declared > limit {
            reject(request, started: started, endReceived: false, context: context)
            return
        }
        if head.headers.first(name: "expect")?.lowercased() == "100-continue" {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
        }
        state = .receiving(request, limit: limit, keepAlive: head.isKeepAlive, started: started, admin: admin)
    }

    // MARK: Slow bodies

    /// Ends a body window every idle timeout; a window that brought too little cuts the connection.
    private func watchBody(context: ChannelHandlerContext) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        bodyWatch = context.eventLoop.assumeIsolated().scheduleTask(in: server.configuration.idleTimeout.timeAmount) {
            let (handler, context) = bound.value
            handler.bodyWatch = nil
            guard case .receiving(let request, _, _, _, _) = handler.state else { return }
            if handler.bodyProgress.windowEnded() {
                handler.watchBody(context: context)
            } else {
                handler.cutSlowBody(request, context: context)
            }
        }
    }

    private func stopWatchingBody() {
        bodyWatch?.cancel()
        bodyWatch = nil
        bodyProgress = BodyProgress(minimumBytes: bodyProgress.minimumBytes)
    }

    /// Closes a connection whose body trickles: like a request head that never completes, it gets no answer.
    private func cutSlowBody(_ request: MockRequest, context: ChannelHandlerContext) {
        if !server.configuration.quiet {
            server.configuration.logger.info(
                "closed \(request.method.rawValue) \(request.uri) from \(request.remoteAddress ?? "?"): its body trickled (fewer than \(bodyProgress.minimumBytes) bytes in \(server.configuration.idleTimeout); \(request.body.readableBytes) received)")
        }
        stopWatchingBody()
        close(context)
    }

    // MARK: Oversized bodies

    private func reject(_ request: MockRequest, started: ContinuousClock.Instant, endReceived: Bool, context: ChannelHandlerContext) {
        stopWatchingBody()
        state = .rejecting(endReceived: endReceived, answered: false)
        var stripped = request
        stripped.body = ByteBuffer()
        let head = stripped
        let responder = server.responder
        let isAdmin = head.path.hasPrefix(AdminAPI.prefix)
        let contract = isAdmin ? nil : server.contractID(head.method.rawValue, head.path)
        run(context, { () async -> MockResponse in
            if isAdmin { return AdminAPI.tooLarge() }
            return await responder.respondToOversizedBody(head)
        }) { handler, context, response in
            guard case .rejecting(let endReceived, _) = handler.state else { return }
            handler.state = .rejecting(endReceived: endReceived, answered: true)
            if !isAdmin {
                handler.record(head, contract: contract, started: started, status: Int(response.status.code), response: response, decision: nil)
            }
            // Say the connection ends, then keep discarding what the client still sends, so it can read the answer instead of a reset.
            handler.write(response, for: head, keepAlive: false, context: context) { handler, context in
                if case .rejecting(true, _) = handler.state {
                    handler.close(context)
                } else {
                    handler.schedule(in: handler.server.configuration.oversizedBodyLinger.timeAmount, context: context) { handler, context in
                        handler.close(context)
                    }
                }
            }
        }
    }

    // MARK: Answering

    private func answerAdmin(_ request: MockRequest, keepAlive: Bool, context: ChannelHandlerContext) {
        let api = server.adminAPI
        if request.method == .GET, request.path == AdminAPI.prefix + "events", api.refusal(request) == nil {
            // The event stream owns the connection from here; like a stall, the handler only waits for it to close.
            state = .stalled
            AdminEventStream.start(on: context.channel, journal: server.journal, options: AdminEventStream.options(for: request))
            return
        }
        run(context, { await api.handle(request) }) { handler, context, response in
            handler.finish(response, for: request, keepAlive: keepAlive, context: context)
        }
    }

    private func answer(_ request: MockRequest, keepAlive: Bool, started: ContinuousClock.Instant, context: ChannelHandlerContext) {
        if adminOnly {
            finish(AdminAPI.notFound(request.path), for: request, keepAlive: keepAlive, context: context)
            return
        }
        if request.path.hasPrefix(AdminAPI.prefix) {
            // Only when the admin API is kept off this port (the proxy's): neither answered nor forwarded nor journaled.
            finish(AdminAPI.elsewhere(request.path, admin: server.address?.adminBaseURL), for: request, keepAlive: keepAlive, context: context)
            return
        }
        let method = request.method.rawValue
        let contract = server.contractID(method, request.path)
        // Before the fault layer: a refused act changes nothing, not even a rule's counter.
        if let refused = server.adminActRefusal(request, contract: contract) {
            finish(refused, for: request, keepAlive: keepAlive, context: context)
            return
        }
        let decision = server.faults.decide(method: method, path: request.path, contract: contract)

        guard let decision else {
            produce(request, context: context) { handler, context, response in
                handler.record(request, contract: contract, started: started, status: Int(response.status.code), response: response, decision: nil)
                handler.finish(response, for: request, keepAlive: keepAlive, context: context)
            }
            return
        }

        switch decision.fault {
        case .status(let status, let body, let headers):
            let response = FaultResponses.status(status, body: body, headers: headers)
            record(request, contract: contract, started: started, status: status, response: response, decision: decision)
            finish(response, for: request, keepAlive: keepAlive, context: context)

        case .delay(let ms):
            schedule(in: .milliseconds(Int64(ms)), context: context) { handler, context in
                handler.produce(request, context: context) { handler, context, response in
                    handler.record(request, contract: contract, started: started, status: Int(response.status.code), response: response, decision: decision)
                    handler.finish(response, for: request, keepAlive: keepAlive, context: context)
                }
            }

        case .stall:
            state = .stalled
            record(request, contract: contract, started: started, status: nil, decision: decision)

        case .drop:
            record(request, contract: contract, started: started, status: nil, decision: decision)
            close(context)

        case .reset:
            record(request, contract: contract, started: started, status: nil, decision: decision)
            resetConnection(context)

        case .refuse(let ms):
            record(request, contract: contract, started: started, status: nil, decision: decision)
            state = .closed
            // The server closes the listener and every connection on the main port, this one included.
            server.refuse(for: ms)

        case .refuseAfterAnswer(let ms):
            produce(request, context: context) { handler, context, response in
                handler.record(request, contract: contract, started: started, status: Int(response.status.code), response: response, decision: decision)
                handler.answerThenRefuse(response, for: request, ms: ms, context: context)
            }

        case .truncate(let bytes):
            produce(request, context: context) { handler, context, response in
                handler.record(request, contract: contract, started: started, status: Int(response.status.code), response: response, decision: decision)
                handler.writeTruncated(response, bytes: bytes, context: context)
            }

        case .malformed(let status, let body):
            produce(request, context: context) { handler, context, response in
                let garbled = FaultResponses.malformed(response, status: status, body: body)
                handler.record(request, contract: contract, started: started, status: Int(garbled.status.code), response: garbled, decision: decision)
                handler.finish(garbled, for: request, keepAlive: keepAlive, context: context)
            }

        case .slowBody(let chunkBytes, let intervalMs):
            produce(request, context: context) { handler, context, response in
                handler.record(request, contract: contract, started: started, status: Int(response.status.code), response: response, decision: decision)
                handler.writeSlowly(response, for: request, keepAlive: keepAlive, chunkBytes: chunkBytes,
                                    interval: .milliseconds(Int64(intervalMs)), context: context)
            }
        }
    }

    // MARK: Journal and log

    /// Journals the exchange; `response` is the answer as produced (nil when none was sent), `status` what the client got.
    private func record(_ request: MockRequest, contract: String? = nil, started: ContinuousClock.Instant, status: Int?,
                        response: MockResponse? = nil, decision: FaultDecision?) {
        let elapsed = ContinuousClock.now - started
        let ms = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        let limit = server.configuration.journalBodyLimit
        let responseBody = response.flatMap { CapturedBody($0.body, limit: limit) }
        // Only error answers are parsed, so a successful exchange pays nothing for the summary.
        let summary = (status ?? 0) >= 400 ? responseBody.flatMap { ErrorEnvelopeSummary(body: $0.bytes) } : nil
        var entry = JournalEntry(
            time: Date() - Double(ms) / 1000, method: request.method.rawValue, path: request.path, contract: contract,
            status: status, authUser: basicAuthUser(request.headers.first(name: "authorization")),
            rule: decision?.rule, fault: decision?.fault.kind, durationMs: ms, query: request.query,
            requestHeaders: HeaderField.list(request.headers), requestBody: CapturedBody(request.body, limit: limit),
            responseHeaders: response.map { HeaderField.list($0.headers) } ?? [], responseBody: responseBody,
            errorCode: summary?.code, errorField: summary?.field)
        if let observer = server.exchangeObserver {
            entry.violations = observer.inspect(entry, requestBody: request.body, parsedRequestBody: response?.parsedRequestBody,
                                                responseBody: response?.body)
            violationHeaders = entry.violations
        }
        entry = server.journal.record(entry)
        server.exchangeObserver?.recorded(entry)
        server.logRequest(entry, uri: request.uri)
    }

    // MARK: Writing

    /// Writes a complete answer and gets ready for the next request (or closes when keep-alive is off).
    private func finish(_ response: MockResponse, for request: MockRequest, keepAlive: Bool, context: ChannelHandlerContext) {
        guard case .responding = state else { return }
        // The pipelining helper hands over the next request as soon as `.end` is written, so be idle before that.
        state = keepAlive ? .idle : .responding
        write(response, for: request, keepAlive: keepAlive, context: context) { handler, context in
            if !keepAlive { handler.close(context) }
        }
    }

    private func responseHead(_ response: MockResponse, for request: MockRequest, keepAlive: Bool, contentLength: Int) -> HTTPResponseHead {
        var headers = response.headers
        headers.remove(name: "content-length")
        headers.remove(name: "transfer-encoding")
        headers.remove(name: "connection")
        if !(request.method == .HEAD || response.status == .noContent || response.status == .notModified) || contentLength > 0 {
            headers.add(name: "content-length", value: "\(contentLength)")
        }
        headers.add(name: "connection", value: keepAlive ? "keep-alive" : "close")
        if !violationHeaders.isEmpty {
            ViolationHeader.add(violationHeaders, to: &headers)
            violationHeaders = []
        }
        if server.configuration.sendsAssumptions, !response.assumptions.isEmpty { AssumptionHeader.add(response.assumptions, to: &headers) }
        return HTTPResponseHead(version: .http1_1, status: response.status, headers: headers)
    }

    private func write(_ response: MockResponse, for request: MockRequest, keepAlive: Bool, context: ChannelHandlerContext,
                       then: @escaping (HTTPConnectionHandler, ChannelHandlerContext) -> Void) {
        let head = responseHead(response, for: request, keepAlive: keepAlive, contentLength: response.body.readableBytes)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if response.body.readableBytes > 0 && request.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(response.body))), promise: nil)
        }
        let promise = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: promise)
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        promise.futureResult.assumeIsolated().whenSuccess {
            let (handler, context) = bound.value
            then(handler, context)
        }
    }

    /// Closes the listener (and every other connection) first, then answers and closes: once the client has the
    /// answer, the port is already closed, so its next connect is refused.
    private func answerThenRefuse(_ response: MockResponse, for request: MockRequest, ms: Int?, context: ChannelHandlerContext) {
        let closed = server.refuse(for: ms, sparing: ObjectIdentifier(context.channel))
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        closed.hop(to: context.eventLoop).assumeIsolated().whenComplete { _ in
            let (handler, context) = bound.value
            handler.finish(response, for: request, keepAlive: false, context: context)
        }
    }

    private func writeTruncated(_ response: MockResponse, bytes: Int, context: ChannelHandlerContext) {
        guard case .responding = state else { return }
        let full = response.body.readableBytes
        let dummy = MockRequest(method: .GET, uri: "/")
        let head = responseHead(response, for: dummy, keepAlive: false, contentLength: full)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        let part = response.body.getSlice(at: response.body.readerIndex, length: min(bytes, full)) ?? ByteBuffer()
        let promise = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(part))), promise: promise)
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        promise.futureResult.assumeIsolated().whenComplete { _ in
            let (handler, context) = bound.value
            handler.close(context)
        }
    }

    private func writeSlowly(_ response: MockResponse, for request: MockRequest, keepAlive: Bool, chunkBytes: Int,
                             interval: TimeAmount, context: ChannelHandlerContext) {
        guard case .responding = state else { return }
        let head = responseHead(response, for: request, keepAlive: keepAlive, contentLength: response.body.readableBytes)
        context.writeAndFlush(wrapOutboundOut(.head(head)), promise: nil)
        drip(response.body, chunkBytes: chunkBytes, interval: interval, keepAlive: keepAlive, context: context)
    }

    private func drip(_ remaining: ByteBuffer, chunkBytes: Int, interval: TimeAmount, keepAlive: Bool, context: ChannelHandlerContext) {
        guard case .responding = state else { return }
        var rest = remaining
        guard rest.readableBytes > 0, let chunk = rest.readSlice(length: min(chunkBytes, rest.readableBytes)) else {
            state = keepAlive ? .idle : .responding
            let promise = context.eventLoop.makePromise(of: Void.self)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: promise)
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            promise.futureResult.assumeIsolated().whenSuccess {
                let (handler, context) = bound.value
                if !keepAlive { handler.close(context) }
            }
            return
        }
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(chunk))), promise: nil)
        let tail = rest
        schedule(in: interval, context: context) { handler, context in
            handler.drip(tail, chunkBytes: chunkBytes, interval: interval, keepAlive: keepAlive, context: context)
        }
    }

    // MARK: Closing

    private func close(_ context: ChannelHandlerContext) {
        if case .closed = state, !context.channel.isActive { return }
        state = .closed
        context.close(promise: nil)
    }

    /// Aborts with a TCP RST: a zero linger time makes close discard unsent data and reset the peer.
    private func resetConnection(_ context: ChannelHandlerContext) {
        state = .closed
        let channel = context.channel
        let close: @Sendable () -> Void = { channel.close(promise: nil) }
        if let provider = channel as? any SocketOptionProvider {
            provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in close() }
        } else {
            close()
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            switch state {
            case .idle, .receiving, .rejecting:
                close(context)
            case .responding, .stalled, .closed:
                // An answer is pending (or deliberately withheld): silence from the client is expected.
                break
            }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        state = .closed
        pending?.cancel()
        pending = nil
        bodyWatch?.cancel()
        bodyWatch = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Parser errors were answered by ProtocolErrorResponder; anything else (e.g. a reset by the peer) ends the connection.
        close(context)
    }

    // MARK: Event-loop plumbing

    /// Runs async work off the loop and continues on the loop with the handler, unless the connection closed meanwhile.
    private func run<T: Sendable>(_ context: ChannelHandlerContext, _ work: @escaping @Sendable () async -> T,
                                  then: @escaping (HTTPConnectionHandler, ChannelHandlerContext, T) -> Void) {
        let promise = context.eventLoop.makePromise(of: T.self)
        promise.completeWithTask(work)
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        promise.futureResult.assumeIsolated().whenSuccess { value in
            let (handler, context) = bound.value
            if case .closed = handler.state { return }
            then(handler, context, value)
        }
    }

    /// Gets the responder's answer: at once on the loop when it is ready, else from a task.
    private func produce(_ request: MockRequest, context: ChannelHandlerContext,
                         then: @escaping (HTTPConnectionHandler, ChannelHandlerContext, MockResponse) -> Void) {
        let responder = server.responder
        if let response = responder.immediateResponse(to: request) {
            then(self, context, response)
        } else {
            run(context, { await responder.respond(to: request) }, then: then)
        }
    }

    private func schedule(in delay: TimeAmount, context: ChannelHandlerContext,
                          _ body: @escaping (HTTPConnectionHandler, ChannelHandlerContext) -> Void) {
        let bound = NIOLoopBound((self, context, body), eventLoop: context.eventLoop)
        let task = context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
            let (handler, context, body) = bound.value
            if case .closed = handler.state { return }
            body(handler, context)
        }
        pending = task
    }
}
