import ContractModel
import NIOCore
import NIOHTTP1
import NIOPosix

/// The NIO shell of one HTTP/1.1 connection: feeds every request part, timer and finished write to its
/// `HTTPConnectionStateMachine` and carries out the action that comes back (answer, write, arm a timer, close).
/// What an answer is (the fault layer, the journal) lives in `HTTPConnectionHandler+Answering.swift`.
final class HTTPConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let server: MockServer
    let adminOnly: Bool
    var machine: HTTPConnectionStateMachine
    /// The one timer a connection can have at a time: a delay fault, the next slow-body chunk or the oversized-body linger.
    private var pending: Scheduled<Void>?
    /// Ends each body window while a body arrives. It stays armed after a body ends and re-arms itself for the next
    /// body's window when it fires (or stops, if no body is arriving): a create whose body comes with its head then
    /// schedules and cancels no timer at all, which cost about 2 % of a create's CPU.
    private var bodyWatch: Scheduled<Void>?
    /// When the current body window began; nil while the machine watches no body.
    private var bodyWindowStart: NIODeadline?
    /// Violations of the exchange being answered, sent as headers with its response head.
    var violationHeaders: [ExchangeViolation] = []
    /// The peer's address as text (nil inside: none), read at the first request: asking the channel (a lock) and
    /// formatting the address for every request of a keep-alive connection cost more than routing it.
    private var peer: String??

    init(server: MockServer, adminOnly: Bool) {
        self.server = server
        self.adminOnly = adminOnly
        self.machine = HTTPConnectionStateMachine(minimumBodyBytes: server.configuration.minimumBodyBytesPerWindow)
    }

    // MARK: Events in

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            let action = machine.receivedHead(makeHead(head, context: context))
            if case .sendContinue = action {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
            } else {
                run(action, context: context)
            }
        case .body(var chunk):
            run(machine.receivedBody(&chunk), context: context)
        case .end:
            run(machine.receivedEnd(), context: context)
        }
    }

    /// What the server decides about a request before its body: its limit, and whether the admin API answers it.
    private func makeHead(_ head: HTTPRequestHead, context: ChannelHandlerContext) -> HTTPConnectionStateMachine.Head {
        let started = ContinuousClock.now
        if peer == nil { peer = .some(context.channel.remoteAddress?.description) }
        var request = MockRequest(method: head.method, uri: head.uri, headers: head.headers, remoteAddress: peer ?? nil)
        let adminPath = request.path.hasPrefix(AdminAPI.prefix)
        if !adminPath && !adminOnly { server.route(&request) }
        // The admin-only port answers 404 to anything else, so it never asks the backend for a limit.
        let limit = adminPath || adminOnly ? AdminAPI.bodyLimit : server.responder.bodyLimit(for: request)
        return HTTPConnectionStateMachine.Head(
            request: request, limit: limit, declaredLength: head.headers.first(name: "content-length").flatMap { Int($0) },
            expectsContinue: head.headers.first(name: "expect")?.lowercased() == "100-continue",
            keepAlive: head.isKeepAlive, admin: adminPath && (adminOnly || server.configuration.adminOnMainPort), started: started)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            run(machine.idleTimeout(), context: context)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        machine.channelInactive()
        pending?.cancel()
        pending = nil
        bodyWindowStart = nil
        bodyWatch?.cancel()
        bodyWatch = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Parser errors were answered by ProtocolErrorResponder; anything else (e.g. a reset by the peer) ends the connection.
        run(machine.close(), context: context)
    }

    // MARK: Actions out

    /// Carries out one of the machine's actions (those that need no answer in hand).
    func run(_ action: HTTPConnectionStateMachine.Action, context: ChannelHandlerContext) {
        syncBodyWatch(context: context)
        switch action {
        case .none, .sendContinue, .write, .writeRejection:
            // `.sendContinue` needs the head's version, the writes an answer in hand: their callers carry them out.
            break
        case .watchBody:
            break
        case .reject(let request, let started):
            reject(request, started: started, context: context)
        case .answer(let request, let keepAlive, let started):
            answer(request, keepAlive: keepAlive, started: started, context: context)
        case .answerAdmin(let request, let keepAlive):
            answerAdmin(request, keepAlive: keepAlive, context: context)
        case .cutSlowBody(let request, let minimumBytes):
            if !server.configuration.quiet {
                server.configuration.logger.info(
                    "closed \(request.method.rawValue) \(request.uri) from \(request.remoteAddress ?? "?"): its body trickled (fewer than \(minimumBytes) bytes in \(server.configuration.idleTimeout); \(request.body.readableBytes) received)")
            }
            context.close(promise: nil)
        case .lingerThenClose:
            schedule(in: server.configuration.oversizedBodyLinger.timeAmount, context: context) { handler, context in
                handler.run(handler.machine.close(), context: context)
            }
        case .close:
            context.close(promise: nil)
        case .reset:
            resetConnection(context)
        }
    }

    /// Starts a body window when the machine begins watching a body and forgets it when it stops; the timer itself is
    /// only armed when none is pending (`bodyWatchFired` re-arms it for the window in force).
    private func syncBodyWatch(context: ChannelHandlerContext) {
        guard machine.watchesBody else {
            bodyWindowStart = nil
            return
        }
        guard bodyWindowStart == nil else { return }
        let start = NIODeadline.now()
        bodyWindowStart = start
        if bodyWatch == nil { armBodyWatch(at: start + server.configuration.idleTimeout.timeAmount, context: context) }
    }

    private func armBodyWatch(at deadline: NIODeadline, context: ChannelHandlerContext) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        bodyWatch = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) {
            let (handler, context) = bound.value
            handler.bodyWatchFired(context: context)
        }
    }

    /// The timer fired: the window in force (if any) ends now, or later if it began after the timer was armed.
    private func bodyWatchFired(context: ChannelHandlerContext) {
        bodyWatch = nil
        guard let start = bodyWindowStart else { return }
        let end = start + server.configuration.idleTimeout.timeAmount
        if NIODeadline.now() < end {
            armBodyWatch(at: end, context: context)
            return
        }
        bodyWindowStart = nil
        run(machine.bodyWindowEnded(), context: context)
    }

    /// Aborts with a TCP RST: a zero linger time makes close discard unsent data and reset the peer.
    private func resetConnection(_ context: ChannelHandlerContext) {
        let channel = context.channel
        let close: @Sendable () -> Void = { channel.close(promise: nil) }
        if let provider = channel as? any SocketOptionProvider {
            provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in close() }
        } else {
            close()
        }
    }

    // MARK: Writing

    /// Writes a complete answer if the machine still wants it, then closes when keep-alive is off.
    func finish(_ response: MockResponse, for request: MockRequest, keepAlive: Bool, context: ChannelHandlerContext) {
        guard case .write(let closeAfterward) = machine.answerReady(keepAlive: keepAlive) else { return }
        write(response, for: request, keepAlive: keepAlive, context: context) { handler, context in
            if closeAfterward { handler.run(handler.machine.close(), context: context) }
        }
    }

    func responseHead(_ response: MockResponse, for request: MockRequest, keepAlive: Bool, contentLength: Int) -> HTTPResponseHead {
        var headers = WireHead.framed(response.headers, method: request.method, status: response.status, keepAlive: keepAlive, contentLength: contentLength)
        if !violationHeaders.isEmpty {
            ViolationHeader.add(violationHeaders, to: &headers)
            violationHeaders = []
        }
        if server.configuration.sendsAssumptions, !response.assumptions.isEmpty { AssumptionHeader.add(response.assumptions, to: &headers) }
        return HTTPResponseHead(version: .http1_1, status: response.status, headers: headers)
    }

    func write(_ response: MockResponse, for request: MockRequest, keepAlive: Bool, context: ChannelHandlerContext,
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

    /// Writes the head and the first `bytes` of the body, then closes: the client sees a body cut short.
    func writeTruncated(_ response: MockResponse, bytes: Int, context: ChannelHandlerContext) {
        guard machine.mayWriteAnswer else { return }
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
            handler.run(handler.machine.close(), context: context)
        }
    }

    /// Writes the head at once and the body `chunkBytes` at a time, one chunk per `interval`.
    func writeSlowly(_ response: MockResponse, for request: MockRequest, keepAlive: Bool, chunkBytes: Int,
                     interval: TimeAmount, context: ChannelHandlerContext) {
        guard machine.mayWriteAnswer else { return }
        let head = responseHead(response, for: request, keepAlive: keepAlive, contentLength: response.body.readableBytes)
        context.writeAndFlush(wrapOutboundOut(.head(head)), promise: nil)
        drip(response.body, chunkBytes: chunkBytes, interval: interval, keepAlive: keepAlive, context: context)
    }

    private func drip(_ remaining: ByteBuffer, chunkBytes: Int, interval: TimeAmount, keepAlive: Bool, context: ChannelHandlerContext) {
        guard machine.mayWriteAnswer else { return }
        var rest = remaining
        guard rest.readableBytes > 0, let chunk = rest.readSlice(length: min(chunkBytes, rest.readableBytes)) else {
            guard case .write(let closeAfterward) = machine.answerReady(keepAlive: keepAlive) else { return }
            let promise = context.eventLoop.makePromise(of: Void.self)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: promise)
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            promise.futureResult.assumeIsolated().whenSuccess {
                let (handler, context) = bound.value
                if closeAfterward { handler.run(handler.machine.close(), context: context) }
            }
            return
        }
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(chunk))), promise: nil)
        let tail = rest
        schedule(in: interval, context: context) { handler, context in
            handler.drip(tail, chunkBytes: chunkBytes, interval: interval, keepAlive: keepAlive, context: context)
        }
    }

    // MARK: Event-loop plumbing

    /// Runs async work off the loop and continues on the loop with the handler, unless the connection closed meanwhile.
    func runAsync<T: Sendable>(_ context: ChannelHandlerContext, _ work: @escaping @Sendable () async -> T,
                               then: @escaping (HTTPConnectionHandler, ChannelHandlerContext, T) -> Void) {
        let promise = context.eventLoop.makePromise(of: T.self)
        promise.completeWithTask(work)
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        promise.futureResult.assumeIsolated().whenSuccess { value in
            let (handler, context) = bound.value
            if handler.machine.isClosed { return }
            then(handler, context, value)
        }
    }

    /// Gets the responder's answer: at once on the loop when it is ready, else from a task.
    func produce(_ request: MockRequest, context: ChannelHandlerContext,
                 then: @escaping (HTTPConnectionHandler, ChannelHandlerContext, MockResponse) -> Void) {
        let responder = server.responder
        if let response = responder.immediateResponse(to: request) {
            then(self, context, response)
        } else {
            runAsync(context, { await responder.respond(to: request) }, then: then)
        }
    }

    /// Runs `body` on the loop after `delay`, unless the connection closed meanwhile.
    func schedule(in delay: TimeAmount, context: ChannelHandlerContext,
                  _ body: @escaping (HTTPConnectionHandler, ChannelHandlerContext) -> Void) {
        let bound = NIOLoopBound((self, context, body), eventLoop: context.eventLoop)
        let task = context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
            let (handler, context, body) = bound.value
            if handler.machine.isClosed { return }
            body(handler, context)
        }
        pending = task
    }
}
