import ContractModel
import Foundation
import NIOCore

/// The first bytes of a request or response body as the journal keeps them, with the body's full size.
///
/// Bodies are copied out of the connection's buffer (never sliced) so a kept entry cannot pin a 20 MiB upload in memory.
public struct CapturedBody: Sendable, Equatable {
    /// The default number of bytes kept per body.
    public static let defaultLimit = 64 * 1024

    /// The body's full size in bytes.
    public var size: Int
    /// The first bytes of the body, at most the capture limit.
    public var bytes: [UInt8]

    /// Whether bytes were left out because the body was longer than the capture limit.
    public var truncated: Bool { bytes.count < size }

    /// The kept bytes as text, when they are valid UTF-8.
    public var text: String? {
        String(validating: bytes, as: UTF8.self)
    }

    /// A captured body from its size and kept bytes.
    public init(size: Int, bytes: [UInt8]) {
        self.size = size
        self.bytes = bytes
    }

    /// Copies at most `limit` bytes of `buffer`; nil when the buffer is empty or capture is off (`limit` 0).
    public init?(_ buffer: ByteBuffer, limit: Int) {
        guard limit > 0, buffer.readableBytes > 0 else { return nil }
        size = buffer.readableBytes
        bytes = buffer.getBytes(at: buffer.readerIndex, length: min(limit, buffer.readableBytes)) ?? []
    }
}

extension CapturedBody: Codable {
    private enum CodingKeys: String, CodingKey {
        case size, truncated, text, base64
    }

    /// Decodes `{"size", "truncated", "text"}` or, for binary bodies, `{"size", "truncated", "base64"}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        size = try c.decode(Int.self, forKey: .size)
        if let text = try c.decodeIfPresent(String.self, forKey: .text) {
            bytes = Array(text.utf8)
        } else if let encoded = try c.decodeIfPresent(String.self, forKey: .base64) {
            guard let data = Data(base64Encoded: encoded) else {
                throw DecodingError.dataCorruptedError(forKey: .base64, in: c, debugDescription: "'base64' is not valid base64")
            }
            bytes = Array(data)
        } else {
            bytes = []
        }
    }

    /// Text bodies stay readable in the JSON; anything else is base64 so no byte is lost.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(size, forKey: .size)
        try c.encode(truncated, forKey: .truncated)
        if let text {
            try c.encode(text, forKey: .text)
        } else {
            try c.encode(Data(bytes).base64EncodedString(), forKey: .base64)
        }
    }
}
