import ContractModel
import NIOCore
import NIOHTTP1

/// Stands in for NIO's outbound request validator on the proxy's connections to the target.
///
/// NIO's validator refuses a request target with any character outside RFC 3986 (`| { } " \ ^` and a backtick among
/// them) by failing the write, which nothing awaited: the request never left and the client waited the whole timeout
/// for a 504. This guard lets through every target `ForwardableRequest` can forward as received and still refuses
/// what would split the request line or a header (control characters), failing the write and closing the connection
/// at once, so the exchange ends with a 502 instead of a wait.
final class UpstreamRequestGuard: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    /// Why a request part was not written.
    struct Refusal: Error, CustomStringConvertible {
        /// A sentence for a person.
        let description: String
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var refusal: Refusal?
        switch unwrapOutboundIn(data) {
        case .head(let head):
            if let character = ForwardableRequest.unsendableCharacter(inTarget: head.uri) {
                refusal = Refusal(description: "the request target holds \(ForwardableRequest.describe(character)), which a request line cannot carry")
            } else if !ForwardableRequest.headersAreSendable(head.headers) {
                refusal = Refusal(description: "a request header holds a character a header line cannot carry")
            }
        case .end(let trailers?) where !ForwardableRequest.headersAreSendable(trailers):
            refusal = Refusal(description: "a trailer holds a character a header line cannot carry")
        case .body, .end:
            break
        }
        guard let refusal else { return context.write(data, promise: promise) }
        promise?.fail(refusal)
        context.fireErrorCaught(refusal)
        context.close(promise: nil)
    }
}

extension ChannelPipeline.SynchronousOperations {
    /// NIO's HTTP/1.1 client handlers with `UpstreamRequestGuard` in place of NIO's request validator.
    func addUpstreamClientHandlers() throws {
        try addHTTPClientHandlers(enableOutboundHeaderValidation: false)
        try addHandler(UpstreamRequestGuard())
    }
}
