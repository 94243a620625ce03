import Foundation

/// The create body and the draft's submission rules with the active mutant's one change (bench/mutants/). Without a
/// mutant both return what the reference computed, untouched.
enum MutantBody {
    /// Extra problems the active mutant finds in a draft the reference would submit (a coordinate taken for missing).
    static func problems(_ draft: ReportDraft) -> [DraftProblem] {
        guard let mutant = ClientMutant.active else { return [] }
        let latitude = draft.latitude, longitude = draft.longitude
        let missing: Bool = switch mutant {
        case .latitudeZeroMissing: latitude == 0
        case .longitudeZeroMissing: longitude == 0
        case .negativeZeroMissing: [latitude, longitude].contains { $0 == 0 && $0?.sign == .minus }
        case .latitude90Rejected: latitude.map { abs($0) == 90 } ?? false
        case .longitude180Rejected: longitude.map { abs($0) == 180 } ?? false
        default: false
        }
        return missing ? [DraftProblem(field: "location", message: "Enter where the pet was last seen")] : []
    }

    /// `body` as the active mutant sends it for `draft`.
    static func apply(_ body: NewAnnouncement, draft: ReportDraft) -> NewAnnouncement {
        guard let mutant = ClientMutant.active else { return body }
        var b = body
        let contact = draft.contact
        switch mutant {
        case .sendsUntrimmedEmail: b.email = ReportDraft.isBlank(contact.email) ? nil : contact.email
        case .sendsWhitespaceRewardAsNull: if ReportDraft.isBlank(contact.reward) { b.reward = nil }
        case .trimsRewardInBody: b.reward = ReportDraft.nonBlank(contact.reward)
        case .phoneSentWithoutPlus: b.phone = b.phone.map { $0.filter { $0 != "+" } }
        case .phoneSentWithoutLeadingZeros: b.phone = b.phone.map(withoutLeadingZeros)
        case .microchipDropsLeadingZeros: b.microchipNumber = b.microchipNumber.map(withoutLeadingZeros)
        case .microchipAllZerosOmitted: if b.microchipNumber?.allSatisfy({ $0 == "0" }) == true { b.microchipNumber = nil }
        case .microchipSentGrouped: b.microchipNumber = b.microchipNumber.map(PetDetailsPresentation.formatMicrochip)
        case .negativeLongitudeSentPositive: b.locationLongitude = abs(b.locationLongitude)
        case .coordinatesRounded:
            b.locationLatitude = (b.locationLatitude * 100).rounded() / 100
            b.locationLongitude = (b.locationLongitude * 100).rounded() / 100
        case .femaleSentAsMale: if b.sex.uppercased() == "FEMALE" { b.sex = "MALE" }
        case .dateUnpadded:
            if let day = draft.lastSeenDate { b.lastSeenDate = "\(day.year)-\(day.month)-\(day.day)" }
        case .scSpeciesUppercased: b.species = b.species.uppercased()
        case .scEmailLowercasedInBody: b.email = b.email?.lowercased()
        default: break
        }
        return b
    }

    /// The text with the zeros after an optional leading `+` removed (one zero is kept when nothing else is left).
    static func withoutLeadingZeros(_ text: String) -> String {
        let plus = text.hasPrefix("+") ? "+" : ""
        let rest = text.dropFirst(plus.count).drop { $0 == "0" }
        return plus + (rest.isEmpty && text.contains("0") ? "0" : String(rest))
    }
}
