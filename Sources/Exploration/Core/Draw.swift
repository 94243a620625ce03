import MockBackend

/// Seeded draws for the generators: the same seed gives the same sessions.
public struct Draw: Sendable {
    private var generator: SeededGenerator

    /// Draws from `seed`.
    public init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    /// A whole number in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { generator.unit() < p }

    /// One of `items` (not empty).
    public mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    /// A fresh 64-bit value, e.g. a sub-seed.
    public mutating func bits() -> UInt64 { generator.next() }
}
