import ContractModel
import NIOCore
import NIOHTTP1

/// Answers requests the HTTP parser rejects (431 for oversized headers, 400 otherwise); the decoder then closes the connection.
final class ProtocolErrorResponder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private var responseInProgress = false

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        // A response already under way cannot be replaced; the decoder closes the connection either way.
        if !responseInProgress {
            let tooLarge = parserError == .headerOverflow
            let message = tooLarge ? "The request headers are too large." : "The request is not valid HTTP/1.1."
            var body = context.channel.allocator.buffer(capacity: 64)
            body.writeString(#"{"error":{"message":"\#(message)"}}"#)
            let headers = HTTPHeaders([
                ("content-type", "application/json"), ("content-length", "\(body.readableBytes)"), ("connection", "close"),
            ])
            let head = HTTPResponseHead(version: .http1_1, status: tooLarge ? .requestHeaderFieldsTooLarge : .badRequest, headers: headers)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.code >= 200:
            responseInProgress = true
        case .end:
            responseInProgress = false
        default:
            break
        }
        context.write(data, promise: promise)
    }
}
