import Exploration
import Testing

/// The generic shrinker keeps the simplest value that still fails.
@Suite("shrinker")
struct ShrinkerTests {
    @Test("a list shrinks to the two elements the failure needs")
    func shrinksList() async {
        let shrinker = Shrinker<[Int]>(candidates: { list in list.indices.map { i in var l = list; l.remove(at: i); return l } })
        let (value, tried) = await shrinker.shrink([5, 3, 9, 3, 7, 1]) { $0.contains(9) && $0.contains(7) }
        #expect(value == [9, 7])
        #expect(tried > 0)
    }

    @Test("a passing candidate is never kept")
    func keepsOriginalWhenNothingSimplerFails() async {
        let shrinker = Shrinker<[Int]>(candidates: { list in list.indices.map { i in var l = list; l.remove(at: i); return l } })
        let (value, _) = await shrinker.shrink([1, 2]) { $0 == [1, 2] }
        #expect(value == [1, 2])
    }

    @Test("session candidates drop actions and faults and simplify inputs")
    func sessionCandidates() {
        let session = Session(actions: [.edit(field: "phone", value: " 12 ab "), .submit, .retry],
                              faults: [PlannedFault(.upload, of: SessionForm.default.calls, call: 2, kind: .drop)])
        let candidates = SessionShrinking.candidates(session)
        #expect(candidates.contains { $0.actions.count == 2 })
        #expect(candidates.contains { $0.faults.isEmpty })
        #expect(candidates.contains { $0.faults.first?.call == 1 })
        #expect(candidates.contains { $0.actions.first == .edit(field: "phone", value: "1234567") })
        #expect(candidates.contains { $0.actions.first == .edit(field: "phone", value: "12 ab") })
    }
}
