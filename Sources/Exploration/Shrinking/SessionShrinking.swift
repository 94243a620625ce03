import Foundation

/// Simpler variants of a session: fewer actions (chunks, then single ones), fewer faults, a plainer report, and inputs
/// moved toward the simplest value of their field (the canonical value, shorter texts, no surrounding whitespace).
public enum SessionShrinking {
    /// The candidates of `session`, most aggressive first.
    @Sendable public static func candidates(_ session: Session) -> [Session] {
        var out: [Session] = []
        let actions = session.actions
        // Chunks of actions, from half the session down to one action.
        var size = actions.count / 2
        while size >= 1 {
            var start = 0
            while start + size <= actions.count {
                var s = session
                s.actions.removeSubrange(start..<(start + size))
                out.append(s)
                start += size
            }
            size /= 2
        }
        for i in session.faults.indices {
            var s = session
            s.faults.remove(at: i)
            out.append(s)
        }
        // Stored announcements no details read opens (the list's count follows the store, the model recounts it).
        let read = actions.compactMap { action -> Int? in if case .readDetails(let pet) = action { pet } else { nil } }
        let kept = session.stored.indices.filter(read.contains)
        if kept.count < session.stored.count {
            var s = session
            s.stored = kept.map { session.stored[$0] }
            s.actions = actions.map { action in
                if case .readDetails(let pet) = action, let n = kept.firstIndex(of: pet) { return .readDetails(pet: n) }
                return action
            }
            out.append(s)
        }
        for (i, pet) in session.stored.enumerated() {
            for simpler in StoredPetShrinking.candidates(pet) {
                var s = session
                s.stored[i] = simpler
                out.append(s)
            }
        }
        if !session.omittedFields.isEmpty || session.lastSeenDate != nil {
            var s = session
            s.omittedFields = []
            s.lastSeenDate = nil
            out.append(s)
        }
        // Then one report variation at a time, when the failure needs some of them.
        if session.omittedFields.count > 1 || (!session.omittedFields.isEmpty && session.lastSeenDate != nil) {
            for i in session.omittedFields.indices {
                var s = session
                s.omittedFields.remove(at: i)
                out.append(s)
            }
            if session.lastSeenDate != nil {
                var s = session
                s.lastSeenDate = nil
                out.append(s)
            }
        }
        // The typed report texts: all back to the report's own, then one at a time, then each toward plain ASCII.
        if !session.reportText.isEmpty {
            var s = session
            s.reportText = [:]
            out.append(s)
            for field in session.reportText.keys.sorted() where session.reportText.count > 1 {
                var one = session
                one.reportText[field] = nil
                out.append(one)
            }
            for (field, text) in session.reportText.sorted(by: { $0.key < $1.key }) {
                for simpler in simplerValues(text, field: field) where simpler.count < text.count || simpler.unicodeScalars.count < text.unicodeScalars.count
                    || simpler.unicodeScalars.allSatisfy(\.isASCII) {
                    var t = session
                    t.reportText[field] = simpler
                    out.append(t)
                }
            }
        }
        for (i, fault) in session.faults.enumerated() where fault.call > 1 {
            var s = session
            s.faults[i].call -= 1
            out.append(s)
        }
        for (i, action) in actions.enumerated() {
            if case .doubleTap = action {
                var s = session
                s.actions[i] = .submit
                out.append(s)
            }
            guard case .edit(let field, let value) = action else { continue }
            for simpler in simplerValues(value, field: field) {
                var s = session
                s.actions[i] = .edit(field: field, value: simpler)
                out.append(s)
            }
        }
        return out
    }

    /// Simpler texts than `value` for `field`, simplest first.
    static func simplerValues(_ value: String, field: String) -> [String] {
        var out: [String] = []
        if let simplest = FieldGrammar.simplest[field], simplest != value { out.append(simplest) }
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed != value { out.append(trimmed) }
        let chars = Array(value)
        if chars.count > 1 {
            out.append(String(chars.prefix(chars.count / 2)))
            out.append(String(chars.suffix(chars.count - chars.count / 2)))
        }
        // One character at a time only for short texts: long ones have already been halved.
        if chars.count <= 16 {
            for i in chars.indices {
                var c = chars
                c.remove(at: i)
                out.append(String(c))
            }
        }
        // Non-ASCII toward ASCII, one kind of character at a time.
        if let odd = chars.first(where: { !$0.isASCII }) {
            out.append(String(chars.map { $0 == odd ? "a" : $0 }))
        }
        return out.filter { $0 != value }
    }
}
