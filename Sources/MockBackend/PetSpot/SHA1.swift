/// SHA-1 (FIPS 180-4), only to reproduce Express's ETag; never for security.
///
/// Written here rather than taken from swift-crypto: one hash of a few hundred bytes per answer does not justify a
/// new dependency for every build of the project. `SHA1Tests` checks it against the standard's test vectors.
struct SHA1 {
    private var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
    /// The message schedule, reused for every block: 16 words rolled in place, one allocation per digest.
    private var w = [UInt32](repeating: 0, count: 16)

    /// The 20-byte digest of `bytes`.
    static func digest(of bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var hasher = SHA1()
        let whole = bytes.count / 64 * 64
        var offset = 0
        while offset < whole {
            hasher.compress { bytes[offset + $0] }
            offset += 64
        }
        // The tail, the 0x80 marker, zeros and the bit length, in one or two final blocks.
        var tail = [UInt8](bytes[whole...])
        tail.append(0x80)
        let padded = tail.count <= 56 ? 64 : 128
        tail += [UInt8](repeating: 0, count: padded - 8 - tail.count)
        let bitLength = UInt64(bytes.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        for block in stride(from: 0, to: padded, by: 64) { hasher.compress { tail[block + $0] } }
        let (a, b, c, d, e) = hasher.h
        return [a, b, c, d, e].flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
    }

    /// The digest of `bytes`, for tests and small values.
    static func digest(of bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { digest(of: $0) }
    }

    /// One 64-byte block, read through `byte(i)`.
    private mutating func compress(_ byte: (Int) -> UInt8) {
        for i in 0..<16 {
            w[i] = UInt32(byte(4 * i)) << 24 | UInt32(byte(4 * i + 1)) << 16 | UInt32(byte(4 * i + 2)) << 8 | UInt32(byte(4 * i + 3))
        }
        var (a, b, c, d, e) = h
        for i in 0..<80 {
            if i >= 16 {
                w[i & 15] = rotate(w[(i - 3) & 15] ^ w[(i - 8) & 15] ^ w[(i - 14) & 15] ^ w[i & 15], 1)
            }
            let f: UInt32, k: UInt32
            switch i {
            case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
            case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
            case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
            default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
            }
            let t = rotate(a, 5) &+ f &+ e &+ k &+ w[i & 15]
            (a, b, c, d, e) = (t, a, rotate(b, 30), c, d)
        }
        h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
    }

    private func rotate(_ x: UInt32, _ n: UInt32) -> UInt32 { x << n | x >> (32 - n) }
}
