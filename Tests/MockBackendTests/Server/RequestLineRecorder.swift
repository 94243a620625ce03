import Foundation
import NIOCore
import NIOPosix

@testable import ContractModel
@testable import MockBackend

/// A bare TCP target for proxy tests: keeps each request line exactly as the bytes arrived, then writes a fixed answer
/// (200 `ok` by default) and closes, or holds the connection open.
///
/// No HTTP parser sits in front of it, so what it records is what the proxy wrote, byte for byte. It answers from the
/// event loop, never the task pool, so its answer comes at once even while the test process's pool is busy.
final class RequestLineRecorder: Sendable {
    private let lines: Locked<[[UInt8]]>
    private let channel: any Channel

    private init(channel: any Channel, lines: Locked<[[UInt8]]>) {
        self.channel = channel
        self.lines = lines
    }

    /// A complete 200 answer with the body `ok`.
    static let okAnswer = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"

    /// Starts listening on 127.0.0.1, on a free port. Every connection gets `answer` once its head has arrived; then
    /// the target closes it, or with `holdOpen` keeps it open and silent (a body that stops coming).
    static func start(answer: String = okAnswer, holdOpen: Bool = false) async throws -> RequestLineRecorder {
        let lines = Locked<[[UInt8]]>([])
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Handler(lines: lines, answer: answer, holdOpen: holdOpen))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return RequestLineRecorder(channel: channel, lines: lines)
    }

    /// Runs `body` with a recorder started as by `start(answer:holdOpen:)`, and shuts it down however `body` ends.
    static func with<T>(answer: String = okAnswer, holdOpen: Bool = false,
                        _ body: (RequestLineRecorder) async throws -> T) async throws -> T {
        let recorder = try await start(answer: answer, holdOpen: holdOpen)
        do {
            let result = try await body(recorder)
            try await recorder.shutdown()
            return result
        } catch {
            try? await recorder.shutdown()
            throw error
        }
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
        private let answer: String
        private let holdOpen: Bool
        private var bytes: [UInt8] = []
        private var answered = false

        init(lines: Locked<[[UInt8]]>, answer: String, holdOpen: Bool) {
            self.lines = lines
            self.answer = answer
            self.holdOpen = holdOpen
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
            let written = context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: answer)))
            guard !holdOpen else { return }
            written.assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        }
    }
}
