import Testing

@testable import ContractModel

/// The hand-written SHA-1 behind Express's ETag, against FIPS 180 test vectors and lengths around the padding edges.
@Suite struct SHA1Tests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test func standardVectors() {
        #expect(Self.hex(SHA1.digest(of: [UInt8]())) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(Self.hex(SHA1.digest(of: Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        // 56 bytes: the length no longer fits the first padded block.
        #expect(Self.hex(SHA1.digest(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
            == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(Self.hex(SHA1.digest(of: [UInt8](repeating: 0x61, count: 1000))) == "291e9a6c66994949b57ba5e650361e98fc36b1ba")
        #expect(Self.hex(SHA1.digest(of: (0..<768).map { UInt8($0 % 256) })) == "ac2a264c8ec1f4232a40854e8239bc3a697ab1d2")
    }

    @Test func expressWeakETagFormat() {
        #expect(ExpressETag.weak(for: Array("{}".utf8)) == #"W/"2-vyGp6PvFo4RvsFtPoIWeCReyIC8""#)
        #expect(ExpressETag.weak(for: Array("hello world".utf8)) == #"W/"b-Kq5sNclPz7QV2+lfQIuc6R7oRu0""#)
    }
}
