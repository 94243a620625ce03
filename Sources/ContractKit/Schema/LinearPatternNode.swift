/// A zero-width test a pattern makes between two scalars.
enum LinearPatternAssertion: Sendable, Equatable {
    /// `^` without the `m` flag: the start of the input.
    case inputStart
    /// `$` without the `m` flag: the end of the input (ECMA-262: not before a final newline, unlike ICU).
    case inputEnd
    /// `\b`
    case wordBoundary
    /// `\B`
    case notWordBoundary
}

/// The parsed form of a pattern, before it is compiled into a program.
indirect enum LinearPatternNode: Sendable, Equatable {
    case empty
    case scalars(ScalarSet)
    case assertion(LinearPatternAssertion)
    case sequence([LinearPatternNode])
    case choice([LinearPatternNode])
    /// `max` nil is unbounded.
    case repetition(LinearPatternNode, min: Int, max: Int?)

    /// How many instructions the compiler emits for this node, saturating rather than overflowing.
    var programSize: Int {
        switch self {
        case .empty: return 0
        case .scalars, .assertion: return 1
        case .sequence(let items): return items.reduce(0) { Self.add($0, $1.programSize) }
        case .choice(let items): return items.reduce(2 * (items.count - 1)) { Self.add($0, $1.programSize) }
        case .repetition(let node, let min, let max):
            let one = node.programSize
            let required = Self.multiply(min, one)
            guard let max else { return Self.add(required, Self.add(one, 2)) }
            return Self.add(required, Self.multiply(max - min, Self.add(one, 1)))
        }
    }

    /// Whether every match must begin at the start of the input (then no thread starts later).
    var isAnchoredAtStart: Bool {
        switch self {
        case .assertion(.inputStart): return true
        case .sequence(let items):
            for item in items {
                if item == .empty { continue }
                return item.isAnchoredAtStart
            }
            return false
        case .choice(let items): return items.allSatisfy(\.isAnchoredAtStart)
        case .repetition(let node, let min, _): return min > 0 && node.isAnchoredAtStart
        default: return false
        }
    }

    private static func add(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : sum
    }

    private static func multiply(_ a: Int, _ b: Int) -> Int {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int.max : product
    }
}
