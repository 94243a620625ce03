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
/// A JSON answer up to `Exchange.jsonValidationLimit` is held until complete, so its violation headers can go in its head;
/// any other answer streams at once and is validated from its head (status, headers, content type).
final class StreamingProxyHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    fileprivate enum Answer {
        /// No answer head from the target yet.
        case waiting
        /// A JSON answer being collected whole.
        case holding(HTTPResponseHead, ByteBuffer)
        /// The head went to the client; body chunks follow as they come.
        case streaming(HTTPResponseHead, violations: [ExchangeViolation])
        /// The answer (or a failure answer) has been written.
        case done
    }

    fileprivate final class ExchangeRef {
        let request: MockRequest
        let started = ContinuousClock.now
        /// Whether the client's connection stays open after this exchange; a failure before its body ended closes it.
        var keepAlive: Bool
        let contract: String?
        var requestCapture: [UInt8] = []
        var requestSize = 0
        let requestCaptureLimit: Int
        var upstream: (any Channel)?
        var requestEnded = false
        /// The target said it keeps the connection open after this answer.
        var reusable = false
        var queued: [HTTPClientRequestPart] = []
        var answer = Answer.waiting
        var responseCapture: [UInt8] = []
        var responseSize = 0
        /// Until the answer's head: the whole wait for it; after: the idle watch on the answer's body.
        var timeout: Scheduled<Void>?
        /// When the target last sent part of the answer, for the idle watch.
        var lastUpstreamRead = NIODeadline.now()

        init(request: MockRequest, keepAlive: Bool, contract: String?) {
            self.request = request
            self.keepAlive = keepAlive
            self.contract = contract
            requestCaptureLimit = Exchange.validationLimit(contentType: request.headers.first(name: "content-type"))
        }
    }

    private let server: MockServer
    private let proxy: FaultProxy
    private var passingThrough = false
    private var current: ExchangeRef?
    /// The target connection the last exchange left open (keep-alive), reused by the next request on this connection.
    private var spare: (channel: any Channel, handler: UpstreamStreamHandler)?

    init(server: MockServer, proxy: FaultProxy) {
        self.server = server
        self.proxy = proxy
    }

    // MARK: From the client

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            // A target that cannot be forwarded is refused (400) by the buffering path, which journals it like any answer;
            // administrator acts go the buffered way too, which refuses those a page on another site sent.
            if head.uri.hasPrefix(AdminAPI.prefix) || !server.faults.rules.isEmpty || current != nil
                || ForwardableRequest.unsendableCharacter(inTarget: head.uri) != nil || server.guardsAdminAct(head) {
                passingThrough = true
                context.fireChannelRead(data)
            } else {
                start(head, context: context)
            }
        case .body(let chunk):
            guard !passingThrough else { return context.fireChannelRead(data) }
            guard let exchange = current else { return }
            exchange.requestSize += chunk.readableBytes
            capture(chunk, into: &exchange.requestCapture, limit: exchange.requestCaptureLimit)
            send(.body(.byteBuffer(chunk)), exchange, context: context)
        case .end:
            guard !passingThrough else {
                passingThrough = false
                return context.fireChannelRead(data)
            }
            guard let exchange = current else { return }
            exchange.requestEnded = true
            send(.end(nil), exchange, context: context)
        }
    }

    private func start(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let request = MockRequest(method: head.method, uri: head.uri, headers: head.headers, remoteAddress: context.channel.remoteAddress?.description)
        let exchange = ExchangeRef(request: request, keepAlive: head.isKeepAlive,
                                contract: server.contractID(request.method.rawValue, request.path))
        current = exchange
        var headers = proxy.forwardedHeaders(head.headers)
        if let length = head.headers.first(name: "content-length") {
            headers.add(name: "Content-Length", value: length)
        } else if head.headers[canonicalForm: "transfer-encoding"].contains(where: { $0.lowercased() == "chunked" }) {
            headers.add(name: "Transfer-Encoding", value: "chunked")
        } else if [.POST, .PUT, .PATCH].contains(head.method) {
            headers.add(name: "Content-Length", value: "0")
        }
        exchange.queued.append(.head(HTTPRequestHead(version: .http1_1, method: request.method, uri: proxy.upstreamURI(head.uri), headers: headers)))
        let upstream = proxy.upstream
        let bound = NIOLoopBound((self, context, exchange), eventLoop: context.eventLoop)
        exchange.timeout = context.eventLoop.scheduleTask(in: upstream.timeout) {
            let (handler, context, exchange) = bound.value
            handler.fail(exchange, .upstreamTimedOut(target: upstream.targetDescription, seconds: Double(upstream.timeout.nanoseconds) / 1e9), context: context)
        }
        if let (channel, link) = spare, channel.isActive {
            spare = nil
            link.exchange = exchange
            attach(channel, exchange, context: context)
            return
        }
        spare?.channel.close(promise: nil)
        spare = nil
        let client = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        ClientBootstrap(group: context.eventLoop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(upstream.timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addUpstreamClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(UpstreamStreamHandler(client))
                }
            }
            .connect(host: upstream.host, port: upstream.port)
            .assumeIsolated()
            .whenComplete { result in
                let (handler, context, exchange) = bound.value
                switch result {
                case .success(let channel):
                    guard handler.current === exchange, case .waiting = exchange.answer else {
                        channel.close(promise: nil)
                        return
                    }
                    guard let link = try? channel.pipeline.syncOperations.handler(type: UpstreamStreamHandler.self) else {
                        channel.close(promise: nil)
                        return
                    }
                    link.exchange = exchange
                    handler.attach(channel, exchange, context: context)
                case .failure(let error):
                    handler.fail(exchange, .upstreamFailed(target: upstream.targetDescription, reason: "\(error)"), context: context)
                }
            }
    }

    /// Sends what the client has sent so far over the target connection; the rest follows as it arrives.
    ///
    /// A write the target connection refuses (`UpstreamRequestGuard`) ends the exchange at once with a 502: nothing
    /// else would, and the client would wait for the whole timeout.
    private func attach(_ channel: any Channel, _ exchange: ExchangeRef, context: ChannelHandlerContext) {
        exchange.upstream = channel
        let bound = NIOLoopBound((self, context, exchange), eventLoop: context.eventLoop)
        let target = proxy.upstream.targetDescription
        for part in exchange.queued {
            let written = context.eventLoop.makePromise(of: Void.self)
            channel.write(part, promise: written)
            written.futureResult.assumeIsolated().whenFailure { error in
                let (handler, context, exchange) = bound.value
                handler.fail(exchange, .upstreamFailed(target: target, reason: "the request could not be written: \(error)"), context: context)
            }
        }
        exchange.queued = []
        channel.flush()
    }

    /// Writes a request part to the target (or queues it until connected); pauses reading the client while the target is full.
    private func send(_ part: HTTPClientRequestPart, _ exchange: ExchangeRef, context: ChannelHandlerContext) {
        guard let upstream = exchange.upstream else {
            exchange.queued.append(part)
            return
        }
        upstream.writeAndFlush(part, promise: nil)
        if !upstream.isWritable { context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in } }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let upstream = current?.upstream {
            upstream.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
        }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // While an exchange streams, the client is waiting for the target; silence from it is expected.
        if current != nil, event is IdleStateHandler.IdleStateEvent { return }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        spare?.channel.close(promise: nil)
        spare = nil
        if let exchange = current {
            current = nil
            exchange.timeout?.cancel()
            exchange.upstream?.close(promise: nil)
            if case .done = exchange.answer {} else { record(exchange, status: nil, headers: [:], violations: nil) }
            exchange.answer = .done
        }
        context.fireChannelInactive()
    }

    // MARK: From the target

    /// Called by the upstream handler when the target's channel can take more: the client may send again.
    fileprivate func upstreamWritable(context: ChannelHandlerContext) {
        context.channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
    }

    fileprivate func upstreamRead(_ part: HTTPClientResponsePart, _ exchange: ExchangeRef, context: ChannelHandlerContext) {
        guard current === exchange else { return }
        exchange.lastUpstreamRead = .now()
        switch (part, exchange.answer) {
        case (.head(let head), .waiting):
            // Interim answers such as 100 Continue are not the response.
            guard head.status.code >= 200 else { return }
            exchange.timeout?.cancel()
            watchUpstreamBody(exchange, after: proxy.upstream.timeout, context: context)
            let type = head.headers.first(name: "content-type")
            let declared = head.headers.first(name: "content-length").flatMap(Int.init)
            if Exchange.isJSON(type), (declared ?? 0) <= Exchange.jsonValidationLimit {
                exchange.answer = .holding(head, context.channel.allocator.buffer(capacity: declared ?? 0))
            } else {
                beginStreaming(head, exchange, context: context)
            }
        case (.body(var chunk), .holding(let head, var held)):
            if held.readableBytes + chunk.readableBytes > Exchange.jsonValidationLimit {
                beginStreaming(head, exchange, context: context)
                forward(held, exchange, context: context)
                forward(chunk, exchange, context: context)
            } else {
                exchange.answer = .done
                held.writeBuffer(&chunk)
                exchange.answer = .holding(head, held)
            }
        case (.body(let chunk), .streaming):
            forward(chunk, exchange, context: context)
        case (.end, .holding(let head, let held)):
            exchange.reusable = head.isKeepAlive
            exchange.responseSize = held.readableBytes
            capture(held, into: &exchange.responseCapture, limit: server.configuration.journalBodyLimit)
            var headers = head.headers
            FaultProxy.removeHopByHop(&headers)
            let violations = inspect(exchange, status: Int(head.status.code), headers: headers, body: held)
            headers.add(name: "content-length", value: "\(held.readableBytes)")
            ViolationHeader.add(violations, to: &headers)
            headers.add(name: "connection", value: exchange.keepAlive ? "keep-alive" : "close")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: head.status, headers: headers))), promise: nil)
            if held.readableBytes > 0 && exchange.request.method != .HEAD { context.write(wrapOutboundOut(.body(.byteBuffer(held))), promise: nil) }
            complete(exchange, status: Int(head.status.code), headers: headers, violations: violations, context: context)
        case (.end, .streaming(let head, let violations)):
            exchange.reusable = head.isKeepAlive
            var headers = head.headers
            FaultProxy.removeHopByHop(&headers)
            complete(exchange, status: Int(head.status.code), headers: headers, violations: violations, context: context)
        default:
            break
        }
    }

    /// Cuts an answer whose body stalls: once the head is in, the target must send something every `upstream.timeout`.
    ///
    /// Rescheduled from the last read rather than on every chunk, so a fast stream costs one timer per timeout, not per chunk.
    /// While the client is the slow one (its socket is full, so the target is paused), the target is not blamed.
    private func watchUpstreamBody(_ exchange: ExchangeRef, after delay: TimeAmount, context: ChannelHandlerContext) {
        let bound = NIOLoopBound((self, context, exchange), eventLoop: context.eventLoop)
        exchange.timeout = context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
            let (handler, context, exchange) = bound.value
            guard handler.current === exchange else { return }
            let limit = handler.proxy.upstream.timeout
            let quiet = NIODeadline.now() - exchange.lastUpstreamRead
            if quiet < limit || !context.channel.isWritable {
                handler.watchUpstreamBody(exchange, after: quiet < limit ? limit - quiet : limit, context: context)
            } else {
                handler.upstreamStalled(exchange, context: context)
            }
        }
    }

    /// The target sent a head but then nothing for the whole timeout: a held JSON answer becomes a 504 (nothing went
    /// out yet); a streaming one can only be cut, exactly as when the target closes mid-body.
    private func upstreamStalled(_ exchange: ExchangeRef, context: ChannelHandlerContext) {
        let upstream = proxy.upstream
        let seconds = Double(upstream.timeout.nanoseconds) / 1e9
        server.configuration.logger.warning(
            "\(upstream.targetDescription) stopped sending the body of its answer to \(exchange.request.method.rawValue) \(exchange.request.uri) for \(seconds) s: cut")
        switch exchange.answer {
        case .holding:
            // The stalled connection cannot be reused, and `fail` would keep it as the spare.
            exchange.reusable = false
            fail(exchange, .upstreamBodyStalled(target: upstream.targetDescription, seconds: seconds), context: context)
        case .streaming:
            exchange.upstream?.close(promise: nil)
            upstreamClosed(exchange, context: context)
        case .waiting, .done:
            break
        }
    }

    /// The idle target connection went away: the next request connects afresh.
    fileprivate func spareClosed(_ channel: any Channel) {
        if let spare, spare.channel === channel { self.spare = nil }
    }

    fileprivate func upstreamClosed(_ exchange: ExchangeRef, context: ChannelHandlerContext) {
        guard current === exchange else { return }
        switch exchange.answer {
        case .waiting, .holding:
            fail(exchange, .upstreamFailed(target: proxy.upstream.targetDescription, reason: "the connection closed before a complete answer"), context: context)
        case .streaming(let head, let violations):
            // The head is out: the only honest signal left is to cut the client's connection too.
            record(exchange, status: Int(head.status.code), headers: head.headers, violations: violations)
            exchange.answer = .done
            current = nil
            context.close(promise: nil)
        case .done:
            break
        }
    }

    private func beginStreaming(_ head: HTTPResponseHead, _ exchange: ExchangeRef, context: ChannelHandlerContext) {
        var headers = head.headers
        let length = headers.first(name: "content-length")
        FaultProxy.removeHopByHop(&headers)
        let violations = inspect(exchange, status: Int(head.status.code), headers: headers, body: nil)
        if let length { headers.add(name: "content-length", value: length) }
        ViolationHeader.add(violations, to: &headers)
        headers.add(name: "connection", value: exchange.keepAlive ? "keep-alive" : "close")
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: head.status, headers: headers))), promise: nil)
        exchange.answer = .streaming(head, violations: violations)
    }

    private func forward(_ chunk: ByteBuffer, _ exchange: ExchangeRef, context: ChannelHandlerContext) {
        exchange.responseSize += chunk.readableBytes
        capture(chunk, into: &exchange.responseCapture, limit: server.configuration.journalBodyLimit)
        guard chunk.readableBytes > 0, exchange.request.method != .HEAD else { return }
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(chunk))), promise: nil)
        if !context.channel.isWritable { exchange.upstream?.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in } }
    }

    /// Ends the client's answer, journals the exchange, and gets ready for the next request (or closes).
    private func complete(_ exchange: ExchangeRef, status: Int, headers: HTTPHeaders, violations: [ExchangeViolation], context: ChannelHandlerContext) {
        exchange.answer = .done
        if exchange.reusable, exchange.requestEnded, let channel = exchange.upstream, channel.isActive,
           let link = try? channel.pipeline.syncOperations.handler(type: UpstreamStreamHandler.self) {
            link.exchange = nil
            spare = (channel, link)
        } else {
            exchange.upstream?.close(promise: nil)
        }
        current = nil
        record(exchange, status: status, headers: headers, violations: violations)
        let keepAlive = exchange.keepAlive
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            if !keepAlive { context.close(promise: nil) }
        }
    }

    /// Answers 502/504 as the buffering proxy does, when no head has gone out yet.
    private func fail(_ exchange: ExchangeRef, _ error: ProxyError, context: ChannelHandlerContext) {
        guard current === exchange else { return }
        switch exchange.answer {
        case .waiting, .holding: break
        case .streaming, .done: return
        }
        exchange.timeout?.cancel()
        // A client still sending its body (perhaps a trickle the target waited on) would otherwise keep the connection for ever.
        if !exchange.requestEnded { exchange.keepAlive = false }
        let response = FaultProxy.failure(error.isTimeout ? .gatewayTimeout : .badGateway, error)
        exchange.responseSize = response.body.readableBytes
        capture(response.body, into: &exchange.responseCapture, limit: server.configuration.journalBodyLimit)
        var headers = response.headers
        let violations = inspect(exchange, status: Int(response.status.code), headers: headers, body: response.body)
        headers.add(name: "content-length", value: "\(response.body.readableBytes)")
        headers.add(name: "connection", value: exchange.keepAlive ? "keep-alive" : "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: response.status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(response.body))), promise: nil)
        complete(exchange, status: Int(response.status.code), headers: response.headers, violations: violations, context: context)
    }

    // MARK: Journal

    private func entry(_ exchange: ExchangeRef, status: Int?, headers: HTTPHeaders) -> JournalEntry {
        let elapsed = ContinuousClock.now - exchange.started
        let ms = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        let limit = server.configuration.journalBodyLimit
        let request = exchange.request
        // `responseCapture` already holds at most `limit` bytes (see `capture`), so it is kept as is.
        let responseBody = exchange.responseSize > 0 && limit > 0
            ? CapturedBody(size: exchange.responseSize, bytes: exchange.responseCapture) : nil
        let summary = (status ?? 0) >= 400 ? responseBody.flatMap { ErrorEnvelopeSummary(body: $0.bytes) } : nil
        return JournalEntry(
            time: Date() - Double(ms) / 1000, method: request.method.rawValue, path: request.path, contract: exchange.contract,
            status: status, authUser: basicAuthUser(request.headers.first(name: "authorization")), rule: nil, fault: nil,
            durationMs: ms, query: request.query, requestHeaders: HeaderField.list(request.headers),
            requestBody: exchange.requestSize > 0 && limit > 0
                ? CapturedBody(size: exchange.requestSize, bytes: Array(exchange.requestCapture.prefix(limit))) : nil,
            responseHeaders: HeaderField.list(headers), responseBody: responseBody, errorCode: summary?.code, errorField: summary?.field)
    }

    private func inspect(_ exchange: ExchangeRef, status: Int, headers: HTTPHeaders, body: ByteBuffer?) -> [ExchangeViolation] {
        guard let observer = server.exchangeObserver else { return [] }
        return observer.inspect(entry(exchange, status: status, headers: headers), requestBody: ByteBuffer(bytes: exchange.requestCapture),
                                parsedRequestBody: nil, responseBody: body)
    }

    private func record(_ exchange: ExchangeRef, status: Int?, headers: HTTPHeaders, violations: [ExchangeViolation]?) {
        var entry = entry(exchange, status: status, headers: headers)
        entry.violations = violations ?? []
        entry = server.journal.record(entry)
        server.exchangeObserver?.recorded(entry)
        server.logRequest(entry, uri: exchange.request.uri)
    }

    private func capture(_ chunk: ByteBuffer, into kept: inout [UInt8], limit: Int) {
        let room = limit - kept.count
        guard room > 0, chunk.readableBytes > 0 else { return }
        kept += chunk.getBytes(at: chunk.readerIndex, length: min(room, chunk.readableBytes)) ?? []
    }
}

/// Hands the target's answer, part by part, to the streaming handler of the client's connection (same event loop).
final class UpstreamStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let bound: NIOLoopBound<(StreamingProxyHandler, ChannelHandlerContext)>
    /// The exchange this connection carries now; nil while it waits as the spare for the next one.
    fileprivate var exchange: StreamingProxyHandler.ExchangeRef?

    init(_ bound: NIOLoopBound<(StreamingProxyHandler, ChannelHandlerContext)>) {
        self.bound = bound
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let exchange else { return }
        let (handler, clientContext) = bound.value
        handler.upstreamRead(unwrapInboundIn(data), exchange, context: clientContext)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, exchange != nil {
            let (handler, clientContext) = bound.value
            handler.upstreamWritable(context: clientContext)
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
