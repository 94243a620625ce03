/// A JSON Schema `pattern` compiled for matching in time linear in the input, without backtracking.
///
/// The pattern is read as ECMA-262 with the `u` flag: text is matched Unicode scalar by Unicode scalar, `.` is any scalar
/// but a line terminator, `\d` `\w` are ASCII, `\s` is ECMA-262 white space, `^` and `$` are the ends of the input. Matching
/// searches anywhere in the text (JSON Schema patterns are not anchored) by simulating the program's automaton over
/// all of its states at once (a Pike VM): the work per input scalar is bounded by the program's size, whatever the
/// pattern and the text. Constructs that need backtracking (backreferences, lookaround) are refused when compiling.
public struct LinearPattern: Sendable {
    /// The pattern as written.
    public let source: String
    let instructions: [LinearInstruction]
    let sets: [ScalarSet]
    /// When every match starts at the input's start, no new thread starts later and a dead search stops early.
    let anchoredAtStart: Bool

    /// Compiles `source`; throws when it is not valid, or needs a construct that cannot run in linear time.
    public init(_ source: String) throws(LinearPatternError) {
        let node = try LinearPatternParser.parse(source)
        let program = try LinearPatternCompiler.compile(node)
        self.source = source
        instructions = program.instructions
        sets = program.sets
        anchoredAtStart = node.isAnchoredAtStart
    }

    /// Whether the pattern matches anywhere in `text`.
    public func matches(_ text: String) -> Bool {
        let count = instructions.count
        // Two sparse sets (dense + sparse halves each) and a work stack, in one temporary buffer: a match allocates
        // nothing on the heap for the small programs contracts have.
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 6 * count + 1) { buffer in
            buffer.initialize(repeating: 0)
            let base = buffer.baseAddress!
            var current = ThreadList(dense: base, sparse: base + count)
            var next = ThreadList(dense: base + 2 * count, sparse: base + 3 * count)
            let stack = base + 4 * count
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
                    let taken: Bool
                    switch instructions[pc] {
                    case .scalar(let value): taken = value == consumed
                    case .set(let index): taken = sets[index].contains(consumed)
                    default: taken = false
                    }
                    if taken, add(pc + 1, to: &next, previous: consumed, following: following, stack: stack) { return true }
                }
                swap(&current, &next)
                previous = consumed
                scalar = following
                atStart = false
            }
        }
    }

    /// Adds `start` and every state reachable from it without consuming input to `list`; true when that reaches `.match`.
    private func add(_ start: Int, to list: inout ThreadList, previous: UInt32?, following: UInt32?,
                     stack: UnsafeMutablePointer<Int32>) -> Bool {
        // Each state enters the list at most once per position and pushes at most two others: at most 2 × size + 1 entries.
        stack[0] = Int32(start)
        var top = 1
        while top > 0 {
            top -= 1
            let pc = Int(stack[top])
            guard list.insert(pc) else { continue }
            switch instructions[pc] {
            case .match:
                return true
            case .jump(let target):
                stack[top] = Int32(target)
                top += 1
            case .split(let first, let second):
                if !list.contains(second) { stack[top] = Int32(second); top += 1 }
                if !list.contains(first) { stack[top] = Int32(first); top += 1 }
            case .assert(let assertion):
                if Self.holds(assertion, previous: previous, following: following) { stack[top] = Int32(pc + 1); top += 1 }
            case .scalar, .set:
                break
            }
        }
        return false
    }

    private static func holds(_ assertion: LinearPatternAssertion, previous: UInt32?, following: UInt32?) -> Bool {
        switch assertion {
        case .inputStart: return previous == nil
        case .inputEnd: return following == nil
        case .wordBoundary, .notWordBoundary:
            let before = previous.map(ScalarSet.word.contains) ?? false
            let after = following.map(ScalarSet.word.contains) ?? false
            return (before != after) == (assertion == .wordBoundary)
        }
    }
}

/// A set of program positions with O(1) insert, lookup and clear (the sparse-set trick), over caller-owned memory.
private struct ThreadList {
    let dense: UnsafeMutablePointer<Int32>
    let sparse: UnsafeMutablePointer<Int32>
    var count = 0

    init(dense: UnsafeMutablePointer<Int32>, sparse: UnsafeMutablePointer<Int32>) {
        self.dense = dense
        self.sparse = sparse
    }

    func contains(_ pc: Int) -> Bool {
        let slot = Int(sparse[pc])
        return slot < count && Int(dense[slot]) == pc
    }

    /// Inserts `pc`; false when it was already there.
    mutating func insert(_ pc: Int) -> Bool {
        if contains(pc) { return false }
        dense[count] = Int32(pc)
        sparse[pc] = Int32(count)
        count += 1
        return true
    }

    mutating func clear() { count = 0 }
}
