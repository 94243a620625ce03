/// Simpler variants of a stored announcement, one field at a time, so a minimal session keeps only the stored values
/// its failure needs (one announcement no longer sets off several bugs at once).
public enum StoredPetShrinking {
    /// The plainest values: a status that needs no mapping, a two-digit day far from any year end.
    static let plainStatus = "MISSING"
    static let plainDate = "2025-06-15"

    /// The candidates of `pet`: each optional field absent, the status and date plain, no photo, one contact fewer.
    public static func candidates(_ pet: StoredPet) -> [StoredPet] {
        var out: [StoredPet] = []
        func with(_ change: (inout StoredPet) -> Void) {
            var p = pet
            change(&p)
            if p != pet { out.append(p) }
        }
        with { $0.breed = nil }
        with { $0.age = nil }
        with { $0.description = nil }
        with { $0.microchipNumber = nil }
        with { $0.reward = nil }
        with { $0.status = plainStatus }
        with { $0.lastSeenDate = plainDate }
        with { $0.hasPhoto = false }
        // At least one contact stays (seed 002 Clarifications).
        if pet.email != nil { with { $0.phone = nil } }
        if pet.phone != nil { with { $0.email = nil } }
        return out
    }
}
