/// Generates sessions from a seed: inputs from the field grammars, user actions, and fault schedules on either step.
public struct SessionGenerator: Sendable {
    /// The run's seed.
    public let seed: UInt64
    /// The form the sessions type into.
    public let form: SessionForm
    /// Every class, in the order sessions take them (`plannedClasses(of:)`).
    let plannedClasses: [PlannedClass]

    /// A generator for `seed`, typing into `form` (the seeds' unless told).
    public init(seed: UInt64, form: SessionForm = .default) {
        self.seed = seed
        self.form = form
        plannedClasses = Self.plannedClasses(of: form)
    }

    /// The report's optional step 1-3 fields (seed 001 Key Entities: microchip, description optional; breed, name, age extra).
    static let optionalFields = ["petName", "breed", "age", "description"]
    /// Dates across month and year ends, leap days and single digits.
    static let dates = ["2025-12-31", "2026-01-01", "2024-02-29", "2025-03-01", "2025-11-30", "2025-01-05"]

    /// Session number `index` (0-based); the same seed and index always give the same session.
    public func session(_ index: Int) -> Session {
        var session = plainSession(index)
        addInputClass(to: &session, index)
        return session
    }

    /// Session `index` before its input class: the generated typing, taps, faults, reads and reach.
    func plainSession(_ index: Int) -> Session {
        var d = Draw(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index))
        var actions: [SessionAction] = []
        let fields = form.fields
        for field in fields where d.chance(0.6) {
            actions.append(.edit(field: field, value: form.value(for: field, &d)))
        }
        let length = d.int(1...8)
        for _ in 0..<length {
            switch d.int(0...11) {
            case 0, 1, 2: actions.append(.submit)
            case 3: actions.append(.doubleTap)
            case 4: actions.append(.retry)
            case 5, 6:
                actions.append(.cancel)
                // Editing after a failed send, then sending again: where stale bodies and lost inputs show.
                if d.chance(0.7) {
                    let field = d.pick(fields)
                    actions.append(.edit(field: field, value: d.chance(0.6) ? d.pick(form.fixes(field)) : form.value(for: field, &d)))
                    actions.append(.submit)
                }
            case 7: actions.append(d.chance(0.7) ? .idle : d.chance(0.5) ? .goOffline : .goOnline)
            default:
                let field = d.pick(fields)
                // Mostly a fix toward a valid value, sometimes another generated one.
                let value = d.chance(0.5) ? d.pick(form.fixes(field)) : form.value(for: field, &d)
                actions.append(.edit(field: field, value: value))
            }
        }
        if !actions.contains(where: { $0 == .submit || $0 == .doubleTap }) { actions.append(.submit) }
        var faults: [PlannedFault] = []
        let faultCount = d.pick([0, 1, 1, 2, 3])
        for _ in 0..<faultCount {
            let step = d.pick([FlowCalls.Step.create, .upload])
            let kind: PlannedFault.Kind = d.pick([
                .status(d.pick([400, 401, 403, 404, 409, 413, 429, 500, 502, 503, 504])), .delay(ms: d.int(10...200)),
                .drop, .reset, .truncate, .malformed, .slowBody, d.chance(0.3) ? .stall : .status(500),
            ])
            // Mostly the first call, so the first attempt fails and the rest of the session recovers from it.
            let call = d.pick([1, 1, 2, 3])
            if !faults.contains(where: { $0.step == step && $0.call == call }) {
                faults.append(PlannedFault(step, of: form.calls, call: call, kind: kind))
            }
        }
        let omitted = Self.optionalFields.filter { _ in d.chance(0.2) }
        let date = d.chance(0.4) ? d.pick(Self.dates) : nil
        var session = Session(actions: actions, faults: faults, omittedFields: omitted, lastSeenDate: date)
        addReads(to: &session, index)
        addRefuse(to: &session, index)
        addReach(to: &session, index)
        addTimedFault(to: &session, index)
        addReportText(to: &session, index)
        return session
    }

    /// Some sessions find the server unreachable (`refuse`, from the start or right after a create's answer) and most
    /// get it back at some later point (`serverBack`), from their own draws like the reads.
    func addRefuse(to session: inout Session, _ index: Int) {
        var d = Draw(seed: (seed ^ 0x0FF_11AE_5E) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index))
        guard d.chance(0.15) else { return }
        if d.chance(0.5) {
            session.faults.append(PlannedFault(.create, of: form.calls, call: 1, kind: .refuse))
        } else {
            let call = d.pick([1, 1, 2])
            session.faults.removeAll { $0.step == .create && $0.call == call }
            session.faults.append(PlannedFault(.create, of: form.calls, call: call, kind: .refuseAfterAnswer))
        }
        guard d.chance(0.8) else { return }
        // Back after the first tap, or later: the retries before it must fail without reaching the server.
        let firstTap = session.actions.firstIndex { $0 == .submit || $0 == .doubleTap } ?? 0
        let at = d.int((firstTap + 1)...max(firstTap + 1, session.actions.count))
        session.actions.insert(.serverBack, at: at)
        if !session.actions[at...].contains(where: { $0 == .retry || $0 == .submit }) { session.actions.append(d.chance(0.5) ? .retry : .submit) }
    }

    /// Some sessions first read stored announcements (details with faults and retries, the list), from their own draws
    /// so the submission part of every session stays as it was.
    func addReads(to session: inout Session, _ index: Int) {
        var d = Draw(seed: (seed ^ 0x5EED_D37A_11) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index))
        guard d.chance(0.3) else { return }
        session.stored = (0..<d.int(1...3)).map { _ in StoredPetGrammar.pet(&d) }
        var reads: [SessionAction] = []
        for _ in 0..<d.int(1...3) {
            reads.append(d.chance(0.8) ? .readDetails(pet: d.int(0...(session.stored.count - 1))) : .list)
        }
        session.actions = reads + session.actions
        for _ in 0..<d.pick([0, 1, 1, 2]) {
            let call = d.int(1...3)
            let kind: PlannedFault.Kind = d.chance(0.8) ? .status(d.pick([404, 500, 502, 503])) : .malformed
            if !session.faults.contains(where: { $0.step == .read && $0.call == call }) {
                session.faults.append(PlannedFault(.read, of: form.calls, call: call, kind: kind))
            }
        }
    }
}

