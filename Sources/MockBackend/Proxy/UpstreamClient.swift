import ContractModel
import NIOCore
import NIOHTTP1
import NIOPosix

/// Sends one request to the target over a fresh HTTP/1.1 connection and collects the whole answer.
struct UpstreamClient: Sendable {
    let host: String
    let port: Int
    let group: any EventLoopGroup
    let timeout: TimeAmount
    let maxResponseBytes: Int
    let targetDescription: String

    func send(head: HTTPRequestHead, body: ByteBuffer) async throws(ProxyError) -> MockResponse {
        let target = targetDescription
        let limit = maxResponseBytes
        let timeout = timeout
        // Connecting, writing the request and collecting the answer all happen on one event loop, never with a hop to
        // the task pool between them: a pool busy for longer than the target's idle timeout would otherwise find the
        // fresh connection already closed by the target ("I/O on closed channel") before the request went out.
        let loop = group.next()
        let promise = loop.makePromise(of: MockResponse.self)
        let timeoutTask = loop.scheduleTask(in: timeout) {
            promise.fail(ProxyError.upstreamTimedOut(target: target, seconds: Double(timeout.nanoseconds) / 1e9))
        }
        let connected = ClientBootstrap(group: loop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addUpstreamClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(UpstreamResponseCollector(promise: promise, limit: limit, target: target))
                }
            }
            .connect(host: host, port: port)
        connected.whenSuccess { channel in
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            if body.readableBytes > 0 {
                channel.write(HTTPClientRequestPart.body(.byteBuffer(body)), promise: nil)
            }
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            // Whatever ends the exchange (the answer, a failure, the timeout) ends the connection too.
            promise.futureResult.whenComplete { _ in channel.close(promise: nil) }
        }
        connected.whenFailure { error in
            promise.fail(ProxyError.upstreamFailed(target: target, reason: "\(error)"))
        }
        do {
            let response = try await promise.futureResult.get()
            timeoutTask.cancel()
            return response
        } catch {
            timeoutTask.cancel()
            if let proxyError = error as? ProxyError { throw proxyError }
            throw .upstreamFailed(target: target, reason: "\(error)")
        }
    }
}

/// Collects one response from the target; fails the promise if the connection ends first.
private final class UpstreamResponseCollector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let promise: EventLoopPromise<MockResponse>
    private let limit: Int
    private let target: String
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()
    private var done = false

    init(promise: EventLoopPromise<MockResponse>, limit: Int, target: String) {
        self.promise = promise
        self.limit = limit
        self.target = target
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !done else { return }
        switch unwrapInboundIn(data) {
        case .head(let h):
            // Interim answers such as 100 Continue are not the response.
            if h.status.code >= 200 || h.status == .switchingProtocols { head = h }
        case .body(var chunk):
            guard head != nil else { return }
            if body.readableBytes + chunk.readableBytes > limit {
                fail(.upstreamResponseTooLarge(target: target, limit: limit), context: context)
                return
            }
            body.writeBuffer(&chunk)
        case .end:
            guard let head else { return }
            done = true
            promise.succeed(MockResponse(status: head.status, headers: head.headers, body: body))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(.upstreamFailed(target: target, reason: "the connection closed before a complete answer"), context: context)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(.upstreamFailed(target: target, reason: "\(error)"), context: context)
    }

    private func fail(_ error: ProxyError, context: ChannelHandlerContext) {
        guard !done else { return }
        done = true
        promise.fail(error)
        context.close(promise: nil)
    }
}
