/// At most two explorations of this test target at once. Each one runs three servers whose models answer on the event
/// loops of the process's shared group, and the edge values send 64 KiB texts through the model's sanitizer: with every
/// exploration suite started together on two cores, a setup create could wait past its timeout behind other suites'
/// work, which says nothing about the code under test. Waiting for a slot costs time, never a verdict.
actor ExplorationSlots {
    static let shared = ExplorationSlots(limit: 2)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) {
        free = limit
    }

    /// Runs `body` once a slot is free and frees it afterwards.
    nonisolated func run<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        do {
            let result = try await body()
            await release()
            return result
        } catch {
            await release()
            throw error
        }
    }

    private func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
