/// A set of Unicode scalar values: one character class of a pattern (a literal, `.`, `\d`, `[^\s@]`, ...).
struct ScalarSet: Sendable, Equatable {
    /// Sorted, non-overlapping, non-adjacent ranges.
    private(set) var ranges: [ClosedRange<UInt32>]
    // Most text is ASCII: one bit test answers it without searching the ranges.
    private var lowBits: UInt64 = 0
    private var highBits: UInt64 = 0

    static let maximumScalar: UInt32 = 0x10FFFF

    /// The union of `ranges`, in any order.
    init(_ ranges: [ClosedRange<UInt32>]) {
        var merged: [ClosedRange<UInt32>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        self.ranges = merged
        for range in merged where range.lowerBound < 128 {
            for v in range.lowerBound...min(range.upperBound, 127) {
                if v < 64 { lowBits |= 1 << UInt64(v) } else { highBits |= 1 << UInt64(v - 64) }
            }
        }
    }

    /// The set of one scalar.
    init(scalar: UInt32) { self.init([scalar...scalar]) }

    /// The single scalar this set holds, if it holds exactly one.
    var singleScalar: UInt32? {
        ranges.count == 1 && ranges[0].lowerBound == ranges[0].upperBound ? ranges[0].lowerBound : nil
    }

    /// Every scalar not in this set.
    var complement: ScalarSet {
        var out: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in ranges {
            if range.lowerBound > next { out.append(next...(range.lowerBound - 1)) }
            next = range.upperBound &+ 1
        }
        if next <= Self.maximumScalar, ranges.last?.upperBound != Self.maximumScalar { out.append(next...Self.maximumScalar) }
        return ScalarSet(out)
    }

    /// The union of this set and `other`.
    func union(_ other: ScalarSet) -> ScalarSet { ScalarSet(ranges + other.ranges) }

    /// Whether the scalar value `v` is in the set.
    @inline(__always)
    func contains(_ v: UInt32) -> Bool {
        if v < 64 { return lowBits >> UInt64(v) & 1 == 1 }
        if v < 128 { return highBits >> UInt64(v - 64) & 1 == 1 }
        var low = 0
        var high = ranges.count
        while low < high {
            let mid = (low + high) / 2
            if ranges[mid].upperBound < v { low = mid + 1 } else { high = mid }
        }
        return low < ranges.count && ranges[low].lowerBound <= v
    }

    // ECMA-262 classes; without the `i` flag, `u` leaves \d and \w ASCII-only.
    static let digit = ScalarSet([0x30...0x39])
    static let word = ScalarSet([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    /// ECMA-262 WhiteSpace and LineTerminator (Unicode Zs included).
    static let space = ScalarSet([
        0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029, 0x202F...0x202F,
        0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF,
    ])
    static let lineTerminator = ScalarSet([0x0A...0x0A, 0x0D...0x0D, 0x2028...0x2029])
    /// What `.` matches: any scalar but a line terminator.
    static let dot = lineTerminator.complement
    static let empty = ScalarSet([])
}
