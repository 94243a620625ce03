/// The range of an announcement's promised fields a details read may meet (issue 43, point 3): values at the edges of
/// the contract's schema (`contracts/schemas/Announcement.json`) and every choice, each a class a session's first stored
/// announcement takes. Only values the schema allows: every key present, nullable ones null or not.
public enum StoredPetEdges {
    /// The classes, each a name and the change it makes.
    public static let all: [(name: String, apply: @Sendable (inout StoredPet) -> Void)] = [
        ("age 0 (integer, no lower bound)", { $0.age = 0 }),
        ("age past step 3's 40 (no upper bound)", { $0.age = 41 }),
        ("reward with spaces around (shown as-is)", { $0.reward = "  100 PLN " }),
        ("microchip with leading zeros", { $0.microchipNumber = "000123456789" }),
        ("15-digit microchip", { $0.microchipNumber = "981000123456789" }),
        ("status FOUND", { $0.status = "FOUND" }),
        ("status CLOSED", { $0.status = "CLOSED" }),
        ("status ACTIVE", { $0.status = "ACTIVE" }),
        ("every nullable field null", { p in
            p.breed = nil; p.age = nil; p.description = nil; p.microchipNumber = nil; p.reward = nil
        }),
        ("phone only", { p in p.phone = p.phone ?? "600700800"; p.email = nil }),
        ("email only", { p in p.email = p.email ?? "owner@example.com"; p.phone = nil }),
    ]
}
