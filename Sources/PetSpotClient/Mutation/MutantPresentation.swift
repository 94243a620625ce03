/// The details screen's values with the active mutant's one change (bench/mutants/); each returns its input unchanged
/// without a mutant.
enum MutantPresentation {
    /// The status badge as the active mutant shows it.
    static func badge(_ badge: StatusBadge) -> StatusBadge {
        switch ClientMutant.active {
        case .detailsFoundShownRed where badge.text == "FOUND": StatusBadge(text: "FOUND", color: .red)
        case .detailsClosedShownMissing where badge.text == "CLOSED": StatusBadge(text: "MISSING", color: .red)
        default: badge
        }
    }

    /// The reward badge's text as the active mutant shows it.
    static func reward(_ reward: String?) -> String? {
        ClientMutant.detailsRewardTrimmed.isOn ? reward.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } : reward
    }

    /// The age as the active mutant shows it: `nil` keeps the reference's text.
    static func age(_ age: Int?) -> String? {
        ClientMutant.detailsAgeZeroDash.isOn && age == 0 ? PetDetailsPresentation.placeholder : nil
    }

    /// The microchip digits as the active mutant formats them.
    static func microchip(_ digits: String) -> String {
        switch ClientMutant.active {
        case .detailsMicrochipLeadingZerosDropped: MutantBody.withoutLeadingZeros(digits)
        // The display format 000-000-000-000 taken for a length: a 15-digit ISO 11784 chip loses its last three.
        case .detailsMicrochipCutAt12: String(digits.prefix(12))
        default: digits
        }
    }
}
