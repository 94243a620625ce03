import Foundation
import NIOCore
import NIOPosix

@testable import MockBackend

/// A bare TCP target for proxy tests: keeps each request line exactly as the bytes arrived, then answers 200 `ok` and closes.
///
/// No HTTP parser sits in front of it, so what it records is what the proxy wrote, byte for byte.
final class RequestLineRecorder: Sendable {
    private let lines: Locked<[[UInt8]]>
    private let channel: any Channel

    private init(channel: any Channel, lines: Locked<[[UInt8]]>) {
        self.channel = channel
        self.lines = lines
    }

    /// Starts listening on 127.0.0.1, on a free port.
    static func start() async throws -> RequestLineRecorder {
        let lines = Locked<[[UInt8]]>([])
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Handler(lines: lines))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return RequestLineRecorder(channel: channel, lines: lines)
    }

    /// `http://127.0.0.1:port`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(channel.localAddress?.port ?? 0)")! }

    /// Every request line received so far, without its CRLF.
    var received: [[UInt8]] { lines.withLock { $0 } }

    /// Stops listening.
    func shutdown() async throws {
        try await channel.close()
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let lines: Locked<[[UInt8]]>
        private var bytes: [UInt8] = []
        private var answered = false

        init(lines: Locked<[[UInt8]]>) {
            self.lines = lines
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !answered else { return }
            bytes += unwrapInboundIn(data).readableBytesView
            // The head ends at the first empty line; the proxy sends these requests without a body.
            guard bytes.indices.dropLast(3).contains(where: { Array(bytes[$0..<($0 + 4)]) == [13, 10, 13, 10] }),
                  let lineEnd = bytes.firstIndex(of: 13) else { return }
            answered = true
            let line = Array(bytes[..<lineEnd])
            lines.withLock { $0.append(line) }
            let answer = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: answer))).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        }
    }
}
