/// Where sessions reach beyond the first tap (issue 28): summer-time dates, microchips, answers near the client's
/// timeout, double taps after Cancel or going back online, and reads after a create or a failed attempt. Drawn from
/// their own draws, like the reads and the refused server, so the rest of every session stays as it was.
extension SessionGenerator {
    /// Microchip numbers a user enters at step 1 (15 digits, ISO 11784; 12 digits, older chips).
    static let microchips = ["981000123456789", "900215004567123", "123456789012"]
    /// Shares of the client's timeout a late answer takes: certain in time, racing the timeout, certain to time out.
    static let timeoutShares = [50, 50, 75, 100, 125, 150, 150]

    /// Adds this session's reach from its own draws.
    func addReach(to session: inout Session, _ index: Int) {
        var d = Draw(seed: (seed ^ 0x2E_AC4_DA7E) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index))
        if d.chance(0.25) { session.lastSeenDate = d.pick(DaylightSavingDates.all) }
        let timed = d.chance(0.1)
        if timed {
            let step = d.pick([FlowCalls.Step.create, .upload])
            let percent = d.pick(Self.timeoutShares)
            let kind: PlannedFault.Kind = d.chance(0.6) ? .lateAnswer(percent: percent) : .slowAnswer(percent: percent)
            session.faults.removeAll { $0.step == step && $0.call == 1 }
            session.faults.append(PlannedFault(step, of: form.calls, call: 1, kind: kind))
        } else if d.chance(0.2) {
            // Not with a late answer: whether a create the client gave up on stored the microchip is the machine's call.
            session.microchip = d.pick(Self.microchips)
        }
        if d.chance(0.25) { addLaterDoubleTap(to: &session, &d) }
        if d.chance(0.3) { addLaterRead(to: &session, &d) }
    }

    /// The report's free-text fields a user may fill with anything (seed 001 Key Entities: name, breed, description).
    static let freeTextFields = ["petName", "breed", "description"]

    /// Text a user types or pastes in steps 1-3: each Unicode class (NFC and NFD, combining marks, emoji sequences,
    /// full-width digits, bidi marks) and plain text at the lengths storage engines cut at, from its own draws.
    func addReportText(to session: inout Session, _ index: Int) {
        var d = Draw(seed: (seed ^ 0x7E_C7DA_7A) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index))
        guard d.chance(0.35) else { return }
        for field in Self.freeTextFields where d.chance(0.5) {
            if d.chance(0.7) {
                session.reportText[field] = d.pick(EdgeValues.unicodeTexts).text
            } else {
                // The longest only in the description, in ASCII: the create body stays under the server's size limit.
                let lengths = field == "description" ? EdgeValues.storageLengths.filter { $0 <= 65_535 } : [255, 256]
                session.reportText[field] = String(repeating: d.pick(["a", "x", "9"]), count: d.pick(lengths))
            }
        }
    }

    /// A double tap after Cancel, after a failure, or after the device is back online (the first tap is covered already).
    func addLaterDoubleTap(to session: inout Session, _ d: inout Draw) {
        let firstTap = session.actions.firstIndex { $0 == .submit || $0 == .doubleTap } ?? 0
        let later = session.actions.indices.filter { $0 > firstTap && [.cancel, .goOnline].contains(session.actions[$0]) }
        if let at = later.isEmpty ? nil : d.pick(later) {
            // The next Continue after it becomes a double tap; without one, a double tap follows it.
            if let next = session.actions[(at + 1)...].firstIndex(of: .submit) {
                session.actions[next] = .doubleTap
            } else {
                session.actions.insert(.doubleTap, at: at + 1)
            }
        } else if d.chance(0.5) {
            // After a failure: Cancel, an offline attempt and its Cancel, back online, then the double tap.
            session.actions.insert(contentsOf: [.cancel, .goOffline, .submit, .cancel, .goOnline, .doubleTap], at: firstTap + 1)
        } else {
            session.actions.insert(contentsOf: [.cancel, .doubleTap], at: firstTap + 1)
        }
    }

    /// A list (mostly) or details read after a create or after a failed attempt and its Cancel.
    func addLaterRead(to session: inout Session, _ d: inout Draw) {
        let read: SessionAction
        if !session.stored.isEmpty, d.chance(0.3) {
            read = .readDetails(pet: d.int(0...(session.stored.count - 1)))
        } else {
            read = .list
        }
        let cancels = session.actions.indices.filter { session.actions[$0] == .cancel }
        if let at = cancels.isEmpty || d.chance(0.5) ? nil : d.pick(cancels) {
            session.actions.insert(read, at: at + 1)
        } else {
            session.actions.append(read)
        }
        // The same read before the submission too, so a client that keeps the earlier answer shows it.
        if read == .list, !session.actions.prefix(while: { $0 != .submit && $0 != .doubleTap }).contains(.list), d.chance(0.6) {
            session.actions.insert(.list, at: 0)
        }
    }
}
