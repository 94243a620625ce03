import ContractModel
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Streams a proxied exchange instead of buffering it: request body chunks go to the target as they arrive, the answer's
/// body goes to the client as it arrives, with backpressure both ways. Only the first bytes are kept for the journal and
/// validation (`Exchange` documents how many).
///
/// It sits in front of `HTTPConnectionHandler` and hands it every request it does not stream: admin requests, and all
/// requests while any fault rule is active (faults such as truncate and malformed need the whole answer).
///
/// It is the NIO shell of `ProxyExchangeStateMachine`, which decides every step of an exchange (what is held, streamed,
/// answered 502/504, cut, journaled): this handler turns channel events, connections and timers into the machine's
/// events and carries out the actions that come back. It keeps only what the machine cannot: the channels, the timer,
/// and when the target last sent something.
final class StreamingProxyHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    fileprivate typealias Machine = ProxyExchangeStateMachine

    private let server: MockServer
    private let proxy: FaultProxy
    private var machine: ProxyExchangeStateMachine
    /// The target connection of the exchange going on, once it carries it.
    private var upstream: (any Channel)?
    /// The target connection the last exchange left open (keep-alive), reused by the next request on this connection.
    private var spare: (channel: any Channel, handler: UpstreamStreamHandler)?
    /// Until the answer's head: the whole wait for it; after: the idle watch on the answer's body.
    private var timer: Scheduled<Void>?
    /// When the target last sent part of the answer going on, for the body watch.
    private var lastUpstreamRead = NIODeadline.now()

    init(server: MockServer, proxy: FaultProxy) {
        self.server = server
        self.proxy = proxy
        machine = ProxyExchangeStateMachine(timeout: proxy.upstream.timeout, target: proxy.upstream.targetDescription,
                                            journalBodyLimit: server.configuration.journalBodyLimit)
    }

    // MARK: From the client

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let action: Machine.Action
        switch unwrapInboundIn(data) {
        case .head(let head):
            action = machine.receivedHead(self.streamedHead(head, context: context))
        case .body(let chunk):
            action = machine.receivedBody(chunk)
        case .end:
            action = machine.receivedEnd()
        }
        if case .passThrough = action {
            context.fireChannelRead(data)
        } else {
            run(action, context: context)
        }
    }

    /// The head as the machine streams it, or nil when it must go the buffering way.
    ///
    /// A target that cannot be forwarded is refused (400) by the buffering path, which journals it like any answer;
    /// administrator acts go the buffered way too, which refuses those a page on another site sent; so does every
    /// request while a fault rule is active (faults such as truncate and malformed need the whole answer).
    private func streamedHead(_ head: HTTPRequestHead, context: ChannelHandlerContext) -> Machine.Head? {
        if head.uri.hasPrefix(AdminAPI.prefix) || !server.faults.rules.isEmpty
            || ForwardableRequest.unsendableCharacter(inTarget: head.uri) != nil || server.guardsAdminAct(head) {
            return nil
        }
        let started = ContinuousClock.now
        let request = MockRequest(method: head.method, uri: head.uri, headers: head.headers, remoteAddress: context.channel.remoteAddress?.description)
        var headers = proxy.forwardedHeaders(head.headers)
        if let length = head.headers.first(name: "content-length") {
            headers.add(name: "Content-Length", value: length)
        } else if head.headers[canonicalForm: "transfer-encoding"].contains(where: { $0.lowercased() == "chunked" }) {
            headers.add(name: "Transfer-Encoding", value: "chunked")
        } else if [.POST, .PUT, .PATCH].contains(head.method) {
            headers.add(name: "Content-Length", value: "0")
        }
        return Machine.Head(
            request: request, contract: server.contractID(request.method.rawValue, request.path), keepAlive: head.isKeepAlive,
            upstreamHead: HTTPRequestHead(version: .http1_1, method: request.method, uri: proxy.upstreamURI(head.uri), headers: headers),
            started: started)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { run(machine.clientBecameWritable(), context: context) }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // While an exchange streams, the client is waiting for the target; silence from it is expected.
        if machine.expectsClientSilence, event is IdleStateHandler.IdleStateEvent { return }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        spare?.channel.close(promise: nil)
        spare = nil
        run(machine.clientClosed(), context: context)
        context.fireChannelInactive()
    }

    // MARK: From the target

    fileprivate func upstreamRead(_ part: HTTPClientResponsePart, _ id: Machine.ExchangeID, context: ChannelHandlerContext) {
        guard machine.current == id else { return }
        lastUpstreamRead = .now()
        switch part {
        case .head(let head): run(machine.upstreamHead(id, head), context: context)
        case .body(let chunk): run(machine.upstreamBody(id, chunk), context: context)
        case .end: run(machine.upstreamEnd(id), context: context)
        }
    }

    /// Called by the upstream handler when the target's channel can take more: the client may send again.
    fileprivate func upstreamWritable(_ id: Machine.ExchangeID, context: ChannelHandlerContext) {
        run(machine.upstreamBecameWritable(id), context: context)
    }

    fileprivate func upstreamClosed(_ id: Machine.ExchangeID, context: ChannelHandlerContext) {
        run(machine.upstreamClosed(id), context: context)
    }

    /// The idle target connection went away: the next request connects afresh.
    fileprivate func spareClosed(_ channel: any Channel) {
        if let spare, spare.channel === channel { self.spare = nil }
    }

    // MARK: Actions out

    /// Carries out one of the machine's actions.
    private func run(_ action: Machine.Action, context: ChannelHandlerContext) {
        switch action {
        case .none, .passThrough, .sendQueued, .dropUpstream:
            // `.passThrough` needs the part read, the other two the connection just made: their callers carry them out.
            break
        case .connect(let id):
            connect(id, context: context)
        case .send(let part):
            guard let upstream else { return }
            upstream.writeAndFlush(part, promise: nil)
            if !upstream.isWritable { context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in } }
        case .watchBody(let delay):
            watchBody(after: delay, context: context)
        case .check(let check):
            run(machine.checked(inspect(check)), context: context)
        case .streamHead(let streamed):
            if streamed.armsBodyWatch { watchBody(after: machine.timeout, context: context) }
            context.writeAndFlush(wrapOutboundOut(.head(streamed.head)), promise: nil)
            for chunk in streamed.body { writeBody(chunk, context: context) }
        case .writeBody(let chunk):
            writeBody(chunk, context: context)
        case .finish(let finish):
            complete(finish, context: context)
        case .cut(let record):
            release(keeping: false)
            self.record(record)
            context.close(promise: nil)
        case .abandon(let record):
            release(keeping: false)
            self.record(record)
        case .resumeClientReads:
            context.channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
        case .resumeUpstreamReads:
            upstream?.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
        }
    }

    /// Arms the answer timer and gets a target connection for exchange `id`: the spare if it is still open, else a new one.
    private func connect(_ id: Machine.ExchangeID, context: ChannelHandlerContext) {
        lastUpstreamRead = .now()
        let upstream = proxy.upstream
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer?.cancel()
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: upstream.timeout) {
            let (handler, context) = bound.value
            handler.run(handler.machine.answerTimedOut(id), context: context)
        }
        if let (channel, link) = spare, channel.isActive {
            spare = nil
            attach(channel, link, id, context: context)
            return
        }
        spare?.channel.close(promise: nil)
        spare = nil
        ClientBootstrap(group: context.eventLoop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(upstream.timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addUpstreamClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(UpstreamStreamHandler(bound))
                }
            }
            .connect(host: upstream.host, port: upstream.port)
            .assumeIsolated()
            .whenComplete { result in
                let (handler, context) = bound.value
                switch result {
                case .success(let channel):
                    guard let link = try? channel.pipeline.syncOperations.handler(type: UpstreamStreamHandler.self) else {
                        channel.close(promise: nil)
                        return
                    }
                    handler.attach(channel, link, id, context: context)
                case .failure(let error):
                    handler.run(handler.machine.upstreamConnectFailed(id, reason: "\(error)"), context: context)
                }
            }
    }

    /// Sends what the client has sent so far over the target connection; the rest follows as it arrives.
    private func attach(_ channel: any Channel, _ link: UpstreamStreamHandler, _ id: Machine.ExchangeID, context: ChannelHandlerContext) {
        guard case .sendQueued(let parts) = machine.upstreamConnected(id) else {
            channel.close(promise: nil)
            return
        }
        link.exchange = id
        upstream = channel
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        for part in parts {
            let written = context.eventLoop.makePromise(of: Void.self)
            channel.write(part, promise: written)
            written.futureResult.assumeIsolated().whenFailure { error in
                let (handler, context) = bound.value
                handler.run(handler.machine.upstreamWriteFailed(id, reason: "\(error)"), context: context)
            }
        }
        channel.flush()
    }

    /// Arms the body watch: rescheduled from the last read rather than on every chunk, so a fast stream costs one timer
    /// per timeout, not per chunk. The machine decides whether a quiet target stalled (`bodyWatchEnded`).
    private func watchBody(after delay: TimeAmount, context: ChannelHandlerContext) {
        guard let id = machine.current else { return }
        timer?.cancel()
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
            let (handler, context) = bound.value
            let request = handler.machine.currentRequest
            let action = handler.machine.bodyWatchEnded(id, quiet: NIODeadline.now() - handler.lastUpstreamRead,
                                                        clientWritable: context.channel.isWritable)
            switch action {
            case .none, .watchBody: break
            default: handler.logStall(request)
            }
            handler.run(action, context: context)
        }
    }

    private func logStall(_ request: MockRequest?) {
        let upstream = proxy.upstream
        let seconds = Double(upstream.timeout.nanoseconds) / 1e9
        let method = request?.method.rawValue ?? "?"
        server.configuration.logger.warning(
            "\(upstream.targetDescription) stopped sending the body of its answer to \(method) \(request?.uri ?? "?") for \(seconds) s: cut")
    }

    private func writeBody(_ chunk: ByteBuffer, context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(chunk))), promise: nil)
        if !context.channel.isWritable { upstream?.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in } }
    }

    /// Writes what is left of the answer, journals the exchange, and gets ready for the next request (or closes).
    private func complete(_ finish: Machine.Finish, context: ChannelHandlerContext) {
        if let head = finish.head { context.write(wrapOutboundOut(.head(head)), promise: nil) }
        if let body = finish.body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        release(keeping: finish.keepsUpstream)
        record(finish.record)
        let closes = finish.closesClient
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            if closes { context.close(promise: nil) }
        }
    }

    /// Stops the exchange's timer and lets go of its target connection: kept as the spare when the machine allows and
    /// the connection is still open, closed otherwise.
    private func release(keeping: Bool) {
        timer?.cancel()
        timer = nil
        guard let channel = upstream else { return }
        upstream = nil
        if keeping, channel.isActive, let link = try? channel.pipeline.syncOperations.handler(type: UpstreamStreamHandler.self) {
            link.exchange = nil
            spare = (channel, link)
        } else {
            channel.close(promise: nil)
        }
    }

    // MARK: Journal

    private func entry(_ transcript: ProxyTranscript, status: Int?, headers: HTTPHeaders) -> JournalEntry {
        let elapsed = ContinuousClock.now - transcript.started
        let ms = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        let limit = server.configuration.journalBodyLimit
        let request = transcript.request
        // `responseBytes` already holds at most `limit` bytes (see `ProxyTranscript`), so it is kept as is.
        let responseBody = transcript.responseSize > 0 && limit > 0
            ? CapturedBody(size: transcript.responseSize, bytes: transcript.responseBytes) : nil
        let summary = (status ?? 0) >= 400 ? responseBody.flatMap { ErrorEnvelopeSummary(body: $0.bytes) } : nil
        return JournalEntry(
            time: Date() - Double(ms) / 1000, method: request.method.rawValue, path: request.path, contract: transcript.contract,
            status: status, authUser: basicAuthUser(request.headers.first(name: "authorization")), rule: nil, fault: nil,
            durationMs: ms, query: request.query, requestHeaders: HeaderField.list(request.headers),
            requestBody: transcript.requestSize > 0 && limit > 0
                ? CapturedBody(size: transcript.requestSize, bytes: Array(transcript.requestBytes.prefix(limit))) : nil,
            responseHeaders: HeaderField.list(headers), responseBody: responseBody, errorCode: summary?.code, errorField: summary?.field)
    }

    private func inspect(_ check: Machine.Check) -> [ExchangeViolation] {
        guard let observer = server.exchangeObserver else { return [] }
        return observer.inspect(entry(check.transcript, status: check.status, headers: check.headers),
                                requestBody: ByteBuffer(bytes: check.transcript.requestBytes), parsedRequestBody: nil, responseBody: check.body)
    }

    private func record(_ record: Machine.Record) {
        var entry = entry(record.transcript, status: record.status, headers: record.headers)
        entry.violations = record.violations
        entry = server.journal.record(entry)
        server.exchangeObserver?.recorded(entry)
        server.logRequest(entry, uri: record.transcript.request.uri)
    }
}

/// Hands the target's answer, part by part, to the streaming handler of the client's connection (same event loop).
final class UpstreamStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let bound: NIOLoopBound<(StreamingProxyHandler, ChannelHandlerContext)>
    /// The exchange this connection carries now; nil while it waits as the spare for the next one.
    fileprivate var exchange: ProxyExchangeStateMachine.ExchangeID?

    init(_ bound: NIOLoopBound<(StreamingProxyHandler, ChannelHandlerContext)>) {
        self.bound = bound
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let exchange else { return }
        let (handler, clientContext) = bound.value
        handler.upstreamRead(unwrapInboundIn(data), exchange, context: clientContext)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let exchange {
            let (handler, clientContext) = bound.value
            handler.upstreamWritable(exchange, context: clientContext)
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        let (handler, clientContext) = bound.value
        if let exchange {
            handler.upstreamClosed(exchange, context: clientContext)
        } else {
            handler.spareClosed(context.channel)
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
