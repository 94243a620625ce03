/// SHA-1 (FIPS 180-4), only to reproduce Express's ETag; never for security.
///
/// Written here rather than taken from swift-crypto: one hash of a few hundred bytes per answer does not justify a
/// new dependency for every build of the project. `SHA1Tests` checks it against the standard's test vectors. It
/// runs on every answer with a body, so it works on raw pointers: no allocation per block, no bounds check per byte.
struct SHA1 {
    private var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)

    /// The 20-byte digest of `bytes`.
    static func digest(of bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var hasher = SHA1()
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { schedule in
            let whole = bytes.count / 64 * 64
            var offset = 0
            while offset < whole {
                hasher.compress(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 64)]), schedule)
                offset += 64
            }
            // The tail, the 0x80 marker, zeros and the bit length, in one or two final blocks.
            var tail = [UInt8](bytes[whole...])
            tail.append(0x80)
            let padded = tail.count <= 56 ? 64 : 128
            tail += [UInt8](repeating: 0, count: padded - 8 - tail.count)
            let bitLength = UInt64(bytes.count) &* 8
            for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
            tail.withUnsafeBytes { raw in
                for block in stride(from: 0, to: padded, by: 64) {
                    hasher.compress(UnsafeRawBufferPointer(rebasing: raw[block..<(block + 64)]), schedule)
                }
            }
        }
        let (a, b, c, d, e) = hasher.h
        var out = [UInt8]()
        out.reserveCapacity(20)
        for word in [a, b, c, d, e] {
            out += [UInt8(truncatingIfNeeded: word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)]
        }
        return out
    }

    /// The digest of `bytes`, for tests and small values.
    static func digest(of bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { digest(of: $0) }
    }

    /// One 64-byte block; `w` is the 16-word message schedule, rolled in place.
    private mutating func compress(_ block: UnsafeRawBufferPointer, _ w: UnsafeMutableBufferPointer<UInt32>) {
        for i in 0..<16 {
            w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
        }
        var (a, b, c, d, e) = h
        for i in 0..<80 {
            if i >= 16 {
                let x = w[(i &- 3) & 15] ^ w[(i &- 8) & 15] ^ w[(i &- 14) & 15] ^ w[i & 15]
                w[i & 15] = x << 1 | x >> 31
            }
            let f: UInt32, k: UInt32
            if i < 20 {
                (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
            } else if i < 40 {
                (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
            } else if i < 60 {
                (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
            } else {
                (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
            }
            let t = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i & 15]
            e = d
            d = c
            c = b << 30 | b >> 2
            b = a
            a = t
        }
        h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
    }
}
