import ScenarioEngine

/// Every class of every input rule, and answers varied as far as a client may rely on them (issue 43). Each session
/// tries one class, taken in turn by the session's index (shifted by the seed), so a default run of 200 sessions tries
/// every class at least once; drawn from their own draws. A class adds to the session and replaces only what it must
/// (the class's own input at its tap, a phone or email the seeds leave open there, a fault the class's answer takes
/// the place of), so the session's own typing, taps, faults and reach stay in the run beside it.
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

    /// Every class of `form`, in the order sessions take them.
    static func plannedClasses(of form: SessionForm) -> [PlannedClass] {
        form.exploredRules.flatMap { rule in rule.classes.map { PlannedClass.input(rule, $0) } }
        + ListQuery.classes(near: SeedModel.storedLocation.latitude, SeedModel.storedLocation.longitude).map { PlannedClass.list($0.name, $0.query) }
        + AnswerBodies.upload.map { PlannedClass.uploadBody($0.name, $0.body) }
        + StoredPetEdges.all.indices.map { PlannedClass.stored($0) }
    }

    /// Gives session `index` its class.
    func addInputClass(to session: inout Session, _ index: Int) {
        var d = Draw(seed: (seed ^ 0x1C_1A55_E5) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index))
        let all = plannedClasses
        let planned = all[(index + Int(seed % UInt64(all.count))) % all.count]
        session.inputClass = planned.name
        switch planned {
        case .input(let rule, let c):
            switch rule.target {
            case .contactField:
                meetFirstSend(&session, typing: (rule.field, c.value))
            case .microchip:
                // Not with a create answered near or past the timeout: whether a create the client gave up on stored the
                // microchip is the machine's call. A timed upload stays (issue 28's reach): the create before it was
                // answered in time, so the model knows the chip is stored and a Try Again meets 409.
                session.faults.removeAll { $0.isTimed && $0.step == .create }
                session.microchip = c.value
                meetFirstSend(&session, typing: nil)
            case .reportNumber:
                session.reportNumbers[rule.field] = Double(c.value) ?? 0
                meetFirstSend(&session, typing: nil)
            case .reportText:
                session.reportText[rule.field] = c.value
                meetFirstSend(&session, typing: nil)
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
            session.faults.removeAll { $0.step == .upload && $0.call == 1 }
            session.faults.append(PlannedFault(.upload, of: form.calls, call: 1, kind: .otherBody(body)))
            meetFirstSend(&session, typing: nil)
        case .stored(let i):
            if session.stored.isEmpty { session.stored = [StoredPetGrammar.pet(&d)] }
            StoredPetEdges.all[i].apply(&session.stored[0])
            if !session.actions.contains(.readDetails(pet: 0)) { session.actions.insert(.readDetails(pet: 0), at: 0) }
        }
    }

    /// Makes the session's first tap that Continue's validation lets through carry the class: `typing` (a contact
    /// field's class value) is typed just before it, and a phone or email the seeds leave open there (a tap on it ends
    /// the model's walk, either outcome allowed) is made valid. Everything else the session typed stays: its taps
    /// before that one, rejected for a phone or email the seeds reject, still meet that rule-breaking text (a client that
    /// accepts letters in the phone sends on them), and a valid value it typed is still the one sent. Without such a
    /// tap, the contact fields the seeds do not accept are fixed after the session's own actions, then Continue.
    func meetFirstSend(_ session: inout Session, typing: (field: String, value: String)?) {
        // A field the session has not typed into holds the report's own value, which every reading accepts.
        var typed: [String: String] = [:]
        var offline = false
        var tap: Int?
        func verdict(_ field: String) -> InputVerdict {
            guard let value = typed[field] else { return .valid }
            return form.verdict(field, value)
        }
        // Before the first tap that passes validation the form stays on screen (a rejected tap shows field errors
        // only), so every edit up to it is typed into the form.
        for (i, action) in session.actions.enumerated() {
            switch action {
            case .edit(let field, let value): typed[field] = value
            case .goOffline: offline = true
            case .goOnline: offline = false
            case .submit, .doubleTap: if !form.validated.contains(where: { verdict($0).isInvalid }) { tap = i }
            default: break
            }
            if tap != nil { break }
        }
        var inserted = form.sendableContacts.filter { $0.field != typing?.field && !verdict($0.field).isValid }
            .map { SessionAction.edit(field: $0.field, value: $0.value) }
        if let typing { inserted.append(.edit(field: typing.field, value: typing.value)) }
        if let tap {
            session.actions.insert(contentsOf: inserted, at: tap)
        } else {
            // Back online first, so the added Continue sends.
            session.actions += (offline ? [.goOnline] : []) + inserted + [.submit]
        }
    }
}
