/// One step of a `LinearPattern` program (a Thompson NFA laid out as instructions).
enum LinearInstruction: Sendable, Equatable {
    /// Consume one scalar equal to this value.
    case scalar(UInt32)
    /// Consume one scalar in the program's set at this index.
    case set(Int)
    /// Continue at both targets.
    case split(Int, Int)
    case jump(Int)
    /// Continue only where the assertion holds.
    case assert(LinearPatternAssertion)
    case match
}

/// Turns a `LinearPatternNode` into instructions, expanding counted repetitions into copies.
struct LinearPatternCompiler {
    /// The most instructions a pattern may compile to. The matcher's work per input scalar is bounded by the program
    /// size, so this bound is what keeps a `{1000}` of a large group from costing much per character (or much memory).
    static let maximumSize = 5_000

    private(set) var instructions: [LinearInstruction] = []
    private(set) var sets: [ScalarSet] = []

    /// The program for `node`, ending in `.match`.
    static func compile(_ node: LinearPatternNode) throws(LinearPatternError) -> (instructions: [LinearInstruction], sets: [ScalarSet]) {
        guard node.programSize <= maximumSize else {
            throw LinearPatternError(.tooLarge,
                "the pattern expands to more than \(maximumSize) steps; lower its counts or repeat smaller groups", offset: 0)
        }
        var compiler = LinearPatternCompiler()
        compiler.emit(node)
        compiler.instructions.append(.match)
        return (compiler.instructions, compiler.sets)
    }

    private mutating func emit(_ node: LinearPatternNode) {
        switch node {
        case .empty:
            break
        case .scalars(let set):
            if let single = set.singleScalar {
                instructions.append(.scalar(single))
            } else if let known = sets.firstIndex(of: set) {
                instructions.append(.set(known))
            } else {
                sets.append(set)
                instructions.append(.set(sets.count - 1))
            }
        case .assertion(let assertion):
            instructions.append(.assert(assertion))
        case .sequence(let items):
            for item in items { emit(item) }
        case .choice(let options):
            var exits: [Int] = []
            for option in options.dropLast() {
                let split = instructions.count
                instructions.append(.split(split + 1, -1))
                emit(option)
                exits.append(instructions.count)
                instructions.append(.jump(-1))
                instructions[split] = .split(split + 1, instructions.count)
            }
            emit(options[options.count - 1])
            for exit in exits { instructions[exit] = .jump(instructions.count) }
        case .repetition(let inner, let min, let max):
            for _ in 0..<min { emit(inner) }
            if let max {
                // Each optional copy skips to the end of all of them when not taken.
                var skips: [Int] = []
                for _ in min..<max {
                    skips.append(instructions.count)
                    instructions.append(.split(instructions.count + 1, -1))
                    emit(inner)
                }
                for skip in skips { instructions[skip] = .split(skip + 1, instructions.count) }
            } else {
                let loop = instructions.count
                instructions.append(.split(loop + 1, -1))
                emit(inner)
                instructions.append(.jump(loop))
                instructions[loop] = .split(loop + 1, instructions.count)
            }
        }
    }
}
