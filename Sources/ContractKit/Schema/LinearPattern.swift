/// A JSON Schema `pattern` compiled for matching in time linear in the input, without backtracking.
///
/// The pattern is read as ECMA-262 with the `u` flag: text is matched Unicode scalar by Unicode scalar, `.` is any scalar
/// but a line terminator, `\d` `\w` are ASCII, `\s` is ECMA-262 white space, `^` and `$` are the ends of the input. Matching
/// searches anywhere in the text (JSON Schema patterns are not anchored) by simulating the program's automaton over
/// all of its states at once (a Pike VM): the work per input scalar is bounded by the program's size, whatever the
/// pattern and the text. Constructs that need backtracking (backreferences, lookaround) are refused when compiling.
/// Long texts run on a deterministic automaton built lazily during the search (`LinearPatternDFA`), which answers
/// the same in a table look-up per character.
public struct LinearPattern: Sendable {
    /// The pattern as written.
    public let source: String
    /// The program, three integers per instruction: opcode, then its operands (see `Opcode`).
    private let code: [Int32]
    /// Per set, the scalars below 64 and below 128 as bits, and where its ranges start in `rangeBounds`.
    private let lowBits: [UInt64]
    private let highBits: [UInt64]
    private let rangeStarts: [Int32]
    /// Lower and upper bounds of every set's ranges (above ASCII), in pairs.
    private let rangeBounds: [UInt32]
    private let size: Int
    /// When every match starts at the input's start, no new thread starts later and a dead search stops early.
    private let anchoredAtStart: Bool
    /// Where each class of scalars the program cannot tell apart begins, ascending from 0 (see `LinearPatternDFA`).
    private let classStarts: [UInt32]
    /// The class of each ASCII scalar.
    private let asciiClasses: [Int32]
    /// `\b` and `\B` look at the next scalar, which the lazy automaton does not track: such programs stay on the Pike VM.
    private let usesWordBoundary: Bool

    /// The texts, in UTF-8 bytes, from which a search builds the lazy automaton: below, building it costs more than it saves.
    static let deterministicThreshold = 256

    /// Which engine a search runs on; both answer the same (`LinearPatternDFATests`).
    enum Engine {
        case automatic, pikeVM, lazyDFA
    }

    private enum Opcode {
        static let scalar: Int32 = 0  // operand: the scalar value
        static let set: Int32 = 1  // operand: the set's index
        static let split: Int32 = 2  // operands: both targets
        static let jump: Int32 = 3  // operand: the target
        static let assert: Int32 = 4  // operand: 0 input start, 1 input end, 2 word boundary, 3 not a word boundary
        static let match: Int32 = 5
    }

    /// Compiles `source`; throws when it is not valid, or needs a construct that cannot run in linear time.
    public init(_ source: String) throws(LinearPatternError) {
        let node = try LinearPatternParser.parse(source)
        let program = try LinearPatternCompiler.compile(node)
        self.source = source
        anchoredAtStart = node.isAnchoredAtStart
        size = program.instructions.count
        var code: [Int32] = []
        code.reserveCapacity(3 * size)
        for instruction in program.instructions {
            switch instruction {
            case .scalar(let value): code += [Opcode.scalar, Int32(bitPattern: value), 0]
            case .set(let index): code += [Opcode.set, Int32(index), 0]
            case .split(let first, let second): code += [Opcode.split, Int32(first), Int32(second)]
            case .jump(let target): code += [Opcode.jump, Int32(target), 0]
            case .assert(let assertion):
                let kind: Int32 = switch assertion {
                case .inputStart: 0
                case .inputEnd: 1
                case .wordBoundary: 2
                case .notWordBoundary: 3
                }
                code += [Opcode.assert, kind, 0]
            case .match: code += [Opcode.match, 0, 0]
            }
        }
        self.code = code
        var low: [UInt64] = [], high: [UInt64] = [], starts: [Int32] = [], bounds: [UInt32] = []
        for set in program.sets + [ScalarSet.word] {
            var l: UInt64 = 0, h: UInt64 = 0
            for v in UInt32(0)..<128 where set.contains(v) {
                if v < 64 { l |= 1 << UInt64(v) } else { h |= 1 << UInt64(v - 64) }
            }
            low.append(l)
            high.append(h)
            starts.append(Int32(bounds.count / 2))
            for range in set.ranges where range.upperBound >= 128 {
                bounds += [max(range.lowerBound, 128), range.upperBound]
            }
        }
        starts.append(Int32(bounds.count / 2))
        lowBits = low
        highBits = high
        rangeStarts = starts
        rangeBounds = bounds
        usesWordBoundary = program.instructions.contains { $0 == .assert(.wordBoundary) || $0 == .assert(.notWordBoundary) }
        // Two scalars no set and no literal tells apart behave the same on every instruction.
        var cuts: Set<UInt32> = [0]
        for instruction in program.instructions {
            if case .scalar(let value) = instruction { cuts.formUnion([value, value + 1]) }
        }
        for set in program.sets {
            for range in set.ranges { cuts.formUnion([range.lowerBound, range.upperBound + 1]) }
        }
        let classes = cuts.filter { $0 <= ScalarSet.maximumScalar }.sorted()
        classStarts = classes
        asciiClasses = (UInt32(0)..<128).map { v in Int32(classes.lastIndex { $0 <= v }!) }
    }

    /// Whether the pattern matches anywhere in `text`.
    public func matches(_ text: String) -> Bool { matches(text, engine: .automatic) }

    /// Whether the pattern matches anywhere in `text`, searched on `engine` where the program allows it.
    func matches(_ text: String, engine: Engine) -> Bool {
        let deterministic = !usesWordBoundary && !text.isEmpty
            && (engine == .lazyDFA || engine == .automatic && text.utf8.count >= Self.deterministicThreshold)
        return withMatcher { matcher in
            if deterministic, let answer = text.utf8.withContiguousStorageIfAvailable({ bytes in
                classStarts.withUnsafeBufferPointer { starts in
                    asciiClasses.withUnsafeBufferPointer { ascii in
                        LinearPatternDFA(matcher: matcher, classStarts: starts, asciiClasses: ascii).run(bytes)
                    }
                }
            }) {
                return answer
            }
            return matcher.run(text)
        }
    }

    private func withMatcher<T>(_ body: (LinearPatternMatcher) -> T) -> T {
        code.withUnsafeBufferPointer { code in
            lowBits.withUnsafeBufferPointer { low in
                highBits.withUnsafeBufferPointer { high in
                    rangeStarts.withUnsafeBufferPointer { starts in
                        rangeBounds.withUnsafeBufferPointer { bounds in
                            body(LinearPatternMatcher(code: code.baseAddress!, low: low.baseAddress!, high: high.baseAddress!,
                                    starts: starts.baseAddress!, bounds: bounds.baseAddress, wordSet: Int32(low.count - 1),
                                    size: size, anchoredAtStart: anchoredAtStart))
                        }
                    }
                }
            }
        }
    }
}

/// One search of a `LinearPattern` over a text, on raw pointers into the program: the inner loop runs once per input
/// scalar and live state, so it avoids reference counting and bounds checks.
struct LinearPatternMatcher {
    let code: UnsafePointer<Int32>
    let low: UnsafePointer<UInt64>
    let high: UnsafePointer<UInt64>
    let starts: UnsafePointer<Int32>
    let bounds: UnsafePointer<UInt32>?
    /// The index of `\w`'s set, appended after the program's own, for `\b` and `\B`.
    let wordSet: Int32
    let size: Int
    let anchoredAtStart: Bool

    @inline(__always)
    func contains(_ set: Int32, _ v: UInt32) -> Bool {
        if v < 64 { return low[Int(set)] >> UInt64(v) & 1 == 1 }
        if v < 128 { return high[Int(set)] >> UInt64(v - 64) & 1 == 1 }
        guard let bounds else { return false }
        var lower = Int(starts[Int(set)])
        var upper = Int(starts[Int(set) + 1])
        while lower < upper {
            let mid = (lower + upper) / 2
            if bounds[2 * mid + 1] < v { lower = mid + 1 } else { upper = mid }
        }
        return lower < Int(starts[Int(set) + 1]) && bounds[2 * lower] <= v
    }

    func run(_ text: String) -> Bool {
        // Two sparse sets (dense + sparse halves each) and a work stack, in one temporary buffer: a match allocates
        // nothing on the heap for the small programs contracts have.
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 6 * size + 1) { buffer in
            buffer.initialize(repeating: 0)
            let base = buffer.baseAddress!
            var current = LinearPatternThreadList(dense: base, sparse: base + size)
            var next = LinearPatternThreadList(dense: base + 2 * size, sparse: base + 3 * size)
            let stack = base + 4 * size
            var scalars = text.unicodeScalars.makeIterator()
            var previous: UInt32? = nil
            var scalar = scalars.next()?.value
            var atStart = true
            while true {
                if atStart || !anchoredAtStart {
                    if add(0, to: &current, previous: previous, following: scalar, stack: stack) { return true }
                } else if current.count == 0 {
                    return false
                }
                guard let consumed = scalar else { return false }
                let following = scalars.next()?.value
                next.clear()
                for k in 0..<current.count {
                    let pc = Int(current.dense[k])
                    let op = code[3 * pc]
                    let taken = op == 0 ? UInt32(bitPattern: code[3 * pc + 1]) == consumed
                        : op == 1 ? contains(code[3 * pc + 1], consumed) : false
                    if taken, add(pc + 1, to: &next, previous: consumed, following: following, stack: stack) { return true }
                }
                swap(&current, &next)
                previous = consumed
                scalar = following
                atStart = false
            }
        }
    }

    /// Adds `start` and every state reachable from it without consuming input to `list`; true when that reaches the match.
    @inline(__always)
    func add(_ start: Int, to list: inout LinearPatternThreadList, previous: UInt32?, following: UInt32?,
             stack: UnsafeMutablePointer<Int32>) -> Bool {
        // Each state enters the list at most once per position and pushes at most two others: at most 2 × size + 1 entries.
        stack[0] = Int32(start)
        var top = 1
        while top > 0 {
            top -= 1
            let pc = Int(stack[top])
            guard list.insert(pc) else { continue }
            switch code[3 * pc] {
            case 5:
                return true
            case 3:
                stack[top] = code[3 * pc + 1]
                top += 1
            case 2:
                let first = Int(code[3 * pc + 1]), second = Int(code[3 * pc + 2])
                if !list.contains(second) { stack[top] = Int32(second); top += 1 }
                if !list.contains(first) { stack[top] = Int32(first); top += 1 }
            case 4:
                if holds(code[3 * pc + 1], previous: previous, following: following) { stack[top] = Int32(pc + 1); top += 1 }
            default:
                break
            }
        }
        return false
    }

    func holds(_ kind: Int32, previous: UInt32?, following: UInt32?) -> Bool {
        switch kind {
        case 0: return previous == nil
        case 1: return following == nil
        default:
            let before = previous.map { contains(wordSet, $0) } ?? false
            let after = following.map { contains(wordSet, $0) } ?? false
            return (before != after) == (kind == 2)
        }
    }
}

/// A set of program positions with O(1) insert, lookup and clear (the sparse-set trick), over caller-owned memory.
struct LinearPatternThreadList {
    let dense: UnsafeMutablePointer<Int32>
    let sparse: UnsafeMutablePointer<Int32>
    var count = 0

    init(dense: UnsafeMutablePointer<Int32>, sparse: UnsafeMutablePointer<Int32>) {
        self.dense = dense
        self.sparse = sparse
    }

    @inline(__always)
    func contains(_ pc: Int) -> Bool {
        let slot = Int(sparse[pc])
        return slot < count && Int(dense[slot]) == pc
    }

    /// Inserts `pc`; false when it was already there.
    @inline(__always)
    mutating func insert(_ pc: Int) -> Bool {
        if contains(pc) { return false }
        dense[count] = Int32(pc)
        sparse[pc] = Int32(count)
        count += 1
        return true
    }

    mutating func clear() { count = 0 }
}
