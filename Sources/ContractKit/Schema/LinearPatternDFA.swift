/// One search of a `LinearPattern` on a deterministic automaton built lazily from its program, as RE2 does.
///
/// Each automaton state is the set of program positions the Pike VM would hold between two scalars. A state's successor
/// for a class of scalars (scalars no instruction tells apart) is computed once by the Pike VM's step and then read
/// from a table, so a long text costs a table look-up per character instead of a step per live position (issue 29:
/// the bundled email rule spent about 35 ns per character). The table lives only for this search, so concurrent
/// searches share nothing. It holds at most `maximumStates` states; when full it is emptied and rebuilt from the
/// current state, so each character still costs at most one Pike VM step: the search stays linear in the text.
///
/// `$` is assumed not to hold while stepping (another scalar follows); at the text's end the last state is asked whether
/// its positions reach the match once `$` holds. `\b` and `\B` need the next scalar too, so those programs never get
/// here. The text must not be empty (then the start state would also be the end state).
struct LinearPatternDFA {
    let matcher: LinearPatternMatcher
    let classStarts: UnsafeBufferPointer<UInt32>
    let asciiClasses: UnsafeBufferPointer<Int32>

    /// Enough for every pattern of the bundled contracts many times over; bounds a search's table to a few hundred KiB.
    static let maximumStates = 256

    /// Successor markers: not computed yet, the match is reached, no position is left.
    static let unknown: Int32 = -1
    static let matched: Int32 = -2
    static let dead: Int32 = -3

    /// Whether the pattern matches anywhere in the UTF-8 `bytes` (valid UTF-8, not empty).
    func run(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let size = matcher.size
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 4 * size + 1) { buffer in
            buffer.initialize(repeating: 0)
            let base = buffer.baseAddress!
            var list = LinearPatternThreadList(dense: base, sparse: base + size)
            let stack = base + 2 * size
            var table = StateTable(classCount: classStarts.count)
            // At the text's start `^` holds and, the text not being empty, `$` does not.
            if matcher.add(0, to: &list, previous: nil, following: 0, stack: stack) { return true }
            var state = table.intern(table.key(list))
            var i = 0
            while i < bytes.count {
                let lead = bytes[i]
                let scalarClass: Int
                if lead < 0x80 {
                    scalarClass = Int(asciiClasses[Int(lead)])
                    i += 1
                } else {
                    let (value, length) = Self.decode(bytes, at: i)
                    scalarClass = classOf(value)
                    i += length
                }
                var target = table.transitions[state * table.classCount + scalarClass]
                if target == Self.unknown {
                    target = step(from: state, on: scalarClass, table: &table, list: &list, stack: stack)
                }
                if target == Self.matched { return true }
                if target == Self.dead { return false }
                state = Int(target)
            }
            return acceptsAtEnd(table.positions(of: state), list: &list, stack: stack)
        }
    }

    /// The successor of `state` on `scalarClass`, computed by one Pike VM step and remembered in `table`.
    private func step(from state: Int, on scalarClass: Int, table: inout StateTable, list: inout LinearPatternThreadList,
                      stack: UnsafeMutablePointer<Int32>) -> Int32 {
        let representative = classStarts[scalarClass]
        let code = matcher.code
        list.clear()
        var reachesMatch = false
        for pc32 in table.positions(of: state) {
            let pc = Int(pc32)
            let op = code[3 * pc]
            let taken = op == 0 ? UInt32(bitPattern: code[3 * pc + 1]) == representative
                : op == 1 ? matcher.contains(code[3 * pc + 1], representative) : false
            if taken, matcher.add(pc + 1, to: &list, previous: representative, following: 0, stack: stack) {
                reachesMatch = true
                break
            }
        }
        // A search not anchored at the start begins a new attempt after every scalar.
        if !reachesMatch, !matcher.anchoredAtStart,
           matcher.add(0, to: &list, previous: representative, following: 0, stack: stack) {
            reachesMatch = true
        }
        let target: Int32
        if reachesMatch {
            target = Self.matched
        } else if list.count == 0 {
            target = Self.dead
        } else {
            let successor = table.key(list)
            if table.index[successor] == nil && table.stateCount >= Self.maximumStates {
                // Full: start again from the state being left, so a character still costs at most one step.
                let kept = Array(table.positions(of: state))
                table = StateTable(classCount: table.classCount)
                let from = table.intern(kept), to = Int32(table.intern(successor))
                table.transitions[from * table.classCount + scalarClass] = to
                return to
            }
            target = Int32(table.intern(successor))
        }
        table.transitions[state * table.classCount + scalarClass] = target
        return target
    }

    /// Whether `positions`, after the text's last scalar, reach the match now that `$` holds.
    private func acceptsAtEnd(_ positions: ArraySlice<Int32>, list: inout LinearPatternThreadList,
                              stack: UnsafeMutablePointer<Int32>) -> Bool {
        list.clear()
        return positions.contains { matcher.add(Int($0), to: &list, previous: 0, following: nil, stack: stack) }
    }

    /// The class of a scalar above ASCII: the last class starting at or below it.
    private func classOf(_ value: UInt32) -> Int {
        var lower = 0
        var upper = classStarts.count
        while upper - lower > 1 {
            let mid = (lower + upper) / 2
            if classStarts[mid] <= value { lower = mid } else { upper = mid }
        }
        return lower
    }

    /// The scalar whose UTF-8 encoding starts at `i` (a lead byte of 0xC0 or above; Swift strings hold valid UTF-8).
    @inline(__always)
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int) {
        let lead = UInt32(bytes[i])
        if lead < 0xE0 { return ((lead & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F), 2) }
        if lead < 0xF0 {
            return ((lead & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F), 3)
        }
        return ((lead & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6
            | UInt32(bytes[i + 3] & 0x3F), 4)
    }
}

/// The states found so far in one lazy-automaton search: each one's program positions and its successors by class.
private struct StateTable {
    let classCount: Int
    /// Per state, `classCount` successors: a state index, or one of `LinearPatternDFA`'s negative markers.
    var transitions: [Int32] = []
    /// Every state's sorted positions, one after another; state `s` holds `allPositions[starts[s]..<starts[s + 1]]`.
    var allPositions: [Int32] = []
    var starts: [Int] = [0]
    var index: [[Int32]: Int] = [:]

    init(classCount: Int) { self.classCount = classCount }

    var stateCount: Int { starts.count - 1 }

    func positions(of state: Int) -> ArraySlice<Int32> { allPositions[starts[state]..<starts[state + 1]] }

    /// The positions of `list` as a key, sorted: the same set reached in another order is the same state.
    func key(_ list: LinearPatternThreadList) -> [Int32] {
        UnsafeBufferPointer(start: list.dense, count: list.count).sorted()
    }

    /// The state for `sorted` positions, added when new.
    mutating func intern(_ sorted: [Int32]) -> Int {
        if let known = index[sorted] { return known }
        let state = stateCount
        index[sorted] = state
        allPositions += sorted
        starts.append(allPositions.count)
        transitions += repeatElement(LinearPatternDFA.unknown, count: classCount)
        return state
    }
}
