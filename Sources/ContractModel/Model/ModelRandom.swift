import Foundation

/// The source of ids, management passwords and request ids; seeded it repeats exactly, unseeded it uses the system generator.
public struct ModelRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64
    private let seeded: Bool

    /// A generator that repeats its sequence for the same `seed`, or draws from the system when `seed` is nil.
    public init(seed: UInt64?) {
        seeded = seed != nil
        state = seed ?? 0
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        guard seeded else {
            var system = SystemRandomNumberGenerator()
            return system.next()
        }
        // SplitMix64: tiny, fast, and good enough for test data; not for secrets.
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A random version 4 UUID in lowercase, like the real backend's ids.
    public mutating func uuid() -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in stride(from: 0, to: 16, by: 8) {
            var word = next()
            for j in 0..<8 {
                bytes[i + j] = UInt8(truncatingIfNeeded: word)
                word >>= 8
            }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (i, byte) in bytes.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { text.append(UInt8(ascii: "-")) }
            text.append(Self.hexDigits[Int(byte >> 4)])
            text.append(Self.hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Six decimal digits in 100000...999999 (`digits-6`).
    public mutating func sixDigits() -> String {
        String(Int.random(in: 100_000...999_999, using: &self))
    }

    /// A 10-character alphanumeric request id.
    public mutating func requestID() -> String {
        // Unseeded, one system draw seeds the ten characters: a request id needs uniqueness, not secrecy, and a getrandom
        // call per character was 6 % of a GET's CPU.
        var source = seeded ? self : ModelRandom(seed: next())
        var text: [UInt8] = []
        text.reserveCapacity(10)
        for _ in 0..<10 { text.append(Self.requestIDAlphabet[Int.random(in: 0..<Self.requestIDAlphabet.count, using: &source)]) }
        if seeded { self = source }
        return String(decoding: text, as: UTF8.self)
    }

    // Byte tables, because ids are made on every request and character arrays cost an allocation each time.
    private static let hexDigits = Array("0123456789abcdef".utf8)
    private static let requestIDAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
}
