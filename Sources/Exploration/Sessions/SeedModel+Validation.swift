import ContractKit
import ScenarioEngine

/// What Continue does with the form's inputs, by the profile's input rules.
extension SeedModel {
    /// The outcome of Continue's validation.
    enum Validation: Equatable {
        /// Every reading sends.
        case sends
        /// Every reading stops it; the field errors each reading shows, one object per alternative (`nil` where a
        /// rejected field has no message the profile states).
        case rejected([JSONValue]?)
        /// Some readings send and some stop it: what follows depends on the reading.
        case either
    }

    /// Validation of `inputs` (each field's possible values). A field the sources leave open is read both ways; in each
    /// reading, the first rejected field's message is required and later ones may be missing (003 T031 returns after
    /// the first invalid field), so the alternatives are every set of messages holding the first.
    func validation(of inputs: [String: [String]]) -> Validation {
        let verdicts: [(field: String, verdict: InputVerdict)] = form.validated.map { field in
            let each = (inputs[field] ?? [""]).map { form.verdict(field, $0) }
            if each.allSatisfy(\.isValid) { return (field, .valid) }
            if let invalid = each.first(where: \.isInvalid), each.allSatisfy(\.isInvalid) { return (field, invalid) }
            return (field, .either(why: "the values the field may hold are judged differently"))
        }
        guard verdicts.contains(where: { $0.verdict.isInvalid }) else {
            return verdicts.allSatisfy { $0.verdict.isValid } ? .sends : .either
        }
        let open = verdicts.filter { !$0.verdict.isValid && !$0.verdict.isInvalid }.map(\.field)
        var alternatives: [JSONValue] = []
        // Each open field read as valid first, so the reading that rejects least comes first.
        for reading in 0..<(1 << open.count) {
            let readInvalid = Set(open.enumerated().filter { reading & (1 << (open.count - 1 - $0.offset)) != 0 }.map(\.element))
            let rejected = verdicts.filter { $0.verdict.isInvalid || readInvalid.contains($0.field) }.map(\.field)
            guard let first = rejected.first else { continue }
            if rejected.contains(where: { form.message($0).isEmpty }) { return .rejected(nil) }
            let later = Array(rejected.dropFirst())
            // Every subset of the later fields, largest first.
            for keep in (0..<(1 << later.count)).sorted(by: { $0.nonzeroBitCount > $1.nonzeroBitCount }) {
                let shown = [first] + later.enumerated().filter { keep & (1 << $0.offset) != 0 }.map(\.element)
                let object = JSONValue.object(JSONObject(shown.map { ($0, JSONValue.string(form.message($0))) }))
                if !alternatives.contains(object) { alternatives.append(object) }
            }
        }
        return .rejected(alternatives)
    }

    /// A text of whitespace only in a field kept verbatim is not empty, so it is sent as typed (001 FR-006 "store text
    /// verbatim"; 003 T037 "verbatim if non-empty"). The sent-report check lets a blank input be absent, so this step
    /// names the value.
    func requireVerbatim(_ inputs: [String: [String]], in expect: inout JSONObject) {
        guard var journal = expect["journal"]?.objectValue, journal["sentReport"] != nil else { return }
        var sent: [(String, JSONValue)] = []
        for field in form.fields where form.input(field)?.rule(.verbatim) != nil {
            guard let values = inputs[field], values.count == 1, let value = values.first, !value.isEmpty,
                  value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { continue }
            sent.append(("/" + field, .string(value)))
        }
        guard !sent.isEmpty else { return }
        journal["sentBody"] = .object(JSONObject(sent))
        expect["journal"] = .object(journal)
    }
}
