/// Every class of every input rule, and answers varied as far as a client may rely on them (issue 43). Each session
/// tries one class, taken in turn by the session's index (shifted by the seed), so a default run of 200 sessions tries
/// every class at least twice; drawn from their own draws, so the rest of every session stays as it was.
extension SessionGenerator {
    /// One class a session tries.
    enum PlannedClass: Sendable {
        /// A value of an input rule's class, where that rule's input goes.
        case input(ExploredInputRule, InputClass)
        /// A list query's class.
        case list(String, ListQuery)
        /// The upload's 201 with another body.
        case uploadBody(String, String)
        /// A stored announcement at an edge of the schema, then read.
        case stored(Int)

        /// The class's name in reports: the rule or answer, then the class.
        var name: String {
            switch self {
            case .input(let rule, let c): "\(rule.field): \(c.name)"
            case .list(let name, _): "list query: \(name)"
            case .uploadBody(let name, _): "upload 201 body: \(name)"
            case .stored(let i): "details answer: \(StoredPetEdges.all[i].name)"
            }
        }
    }

    /// Every class, in the order sessions take them.
    static let plannedClasses: [PlannedClass] =
        ExploredInputRule.all.flatMap { rule in rule.classes.map { PlannedClass.input(rule, $0) } }
        + ListQuery.classes(near: SeedModel.storedLocation.latitude, SeedModel.storedLocation.longitude).map { PlannedClass.list($0.name, $0.query) }
        + AnswerBodies.upload.map { PlannedClass.uploadBody($0.name, $0.body) }
        + StoredPetEdges.all.indices.map { PlannedClass.stored($0) }

    /// Gives session `index` its class.
    func addInputClass(to session: inout Session, _ index: Int) {
        var d = Draw(seed: (seed ^ 0x1C_1A55_E5) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index))
        let all = Self.plannedClasses
        let planned = all[(index + Int(seed % UInt64(all.count))) % all.count]
        session.inputClass = planned.name
        // The class decides the first tap: the other contact inputs are made valid just before it, so a generated
        // phone or email the seeds reject cannot keep the class's request from being sent.
        let own: String? = if case .input(let rule, _) = planned, rule.target == .contactField { rule.field } else { nil }
        let fixes = ["phone": "600 700 800", "email": "owner@example.com"].filter { $0.key != own }.sorted { $0.key < $1.key }
        let firstTap = session.actions.firstIndex { $0 == .submit || $0 == .doubleTap } ?? session.actions.count
        session.actions.insert(contentsOf: fixes.map { SessionAction.edit(field: $0.key, value: $0.value) }, at: firstTap)
        switch planned {
        case .input(let rule, let c):
            switch rule.target {
            case .contactField:
                // Typed just before the first Continue, so that tap judges it.
                let firstTap = session.actions.firstIndex { $0 == .submit || $0 == .doubleTap } ?? session.actions.count
                session.actions.insert(.edit(field: rule.field, value: c.value), at: firstTap)
            case .microchip:
                // Not with an answer timed against the timeout: whether a create the client gave up on stored it is the machine's call.
                session.faults.removeAll(where: \.isTimed)
                session.microchip = c.value
            case .reportNumber:
                session.reportNumbers[rule.field] = Double(c.value) ?? 0
            case .reportText:
                session.reportText[rule.field] = c.value
            }
        case .list(_, let query):
            session.listQuery = query
            if !session.stored.contains(where: \.hasPhoto) {
                var pet = StoredPetGrammar.pet(&d)
                pet.hasPhoto = true
                session.stored.append(pet)
            }
            // Before the first tap and after the last, so the query meets the stored announcements and this session's own.
            session.actions.insert(.list, at: 0)
            session.actions.append(.list)
        case .uploadBody(_, let body):
            session.faults.removeAll { $0.contract == "uploadPhoto" && $0.call == 1 }
            session.faults.append(PlannedFault(contract: "uploadPhoto", call: 1, kind: .otherBody(body)))
        case .stored(let i):
            if session.stored.isEmpty { session.stored = [StoredPetGrammar.pet(&d)] }
            StoredPetEdges.all[i].apply(&session.stored[0])
            if !session.actions.contains(.readDetails(pet: 0)) { session.actions.insert(.readDetails(pet: 0), at: 0) }
        }
    }
}
