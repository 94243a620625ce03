/// A slice `index` of `count` of a scenario suite, assigned by a stable hash of the name so CI runners never overlap.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 1-based shard number.
    public let index: Int
    /// Number of shards.
    public let count: Int

    /// Parses `k/n` with 1 ≤ k ≤ n; `nil` for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else { return nil }
        index = k
        count = n
    }

    /// Shard `index` of `count`.
    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Whether the scenario named `name` belongs to this shard.
    public func contains(_ name: String) -> Bool {
        Int(Self.fnv1a(name) % UInt64(count)) == index - 1
    }

    /// 64-bit FNV-1a of the UTF-8 bytes: the same on every machine and every run, unlike `hashValue`.
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The text shown to people.
    public var description: String { "\(index)/\(count)" }
}
