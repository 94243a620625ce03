/// Grammars of the step-4 inputs (issue 21): shapes a user or a paste produces, valid and not, near every limit.
public enum FieldGrammar {
    /// The simplest value of each field the shrinker moves toward: valid, short, ASCII.
    public static let simplest: [String: String] = ["phone": "1234567", "email": "a@b.co", "reward": ""]

    /// A phone: 5 to 13 digits, grouped with spaces, dashes, dots or parentheses, a leading or inner `+`, letters,
    /// non-ASCII digits, surrounding whitespace, or a common national format.
    public static func phone(_ d: inout Draw) -> String {
        let count = d.int(5...13)
        var digits = (0..<count).map { _ in String(d.int(0...9)) }
        if d.chance(0.08) { digits[d.int(0...(count - 1))] = d.pick(["٣", "７", "५"]) }
        if d.chance(0.05) { digits[d.int(0...(count - 1))] = d.pick(["O", "l", "x"]) }
        var text = ""
        let separator = d.pick(["", "", " ", "-", ".", " "])
        for (i, digit) in digits.enumerated() {
            if i > 0, i % d.int(2...4) == 0 { text += separator }
            text += digit
        }
        switch d.int(0...9) {
        case 0: text = "+" + text
        case 1: text = "(" + text.prefix(3) + ") " + text.dropFirst(3)
        case 2: text = String(text.prefix(2)) + "+" + text.dropFirst(2)
        case 3: text = "0" + text.prefix(3) + " " + text.dropFirst(3)
        default: break
        }
        if d.chance(0.15) { text = d.pick([" ", "\t", "  "]) + text + d.pick(["", " ", "\n"]) }
        return text
    }

    /// An email: plus addressing, subdomains, a missing or one-letter TLD, upper case, whitespace, non-ASCII, up to 254 characters.
    public static func email(_ d: inout Draw) -> String {
        var local = d.pick(["owner", "a", "jan.kowalski", "Pet.Owner", "x_y"])
        if d.chance(0.2) { local += "+" + d.pick(["pets", "tag", "1"]) }
        if d.chance(0.05) { local = d.pick(["żaneta", "ünal"]) }
        var domain = d.pick(["example", "mail", "b"])
        if d.chance(0.2) { domain = d.pick(["mail.", "eu.", "a.b."]) + domain }
        switch d.int(0...9) {
        case 0: break
        case 1: domain += "." + d.pick(["c", "x"])
        case 2: domain += "." + d.pick(["c0m", "1"])
        default: domain += "." + d.pick(["com", "pl", "org", "co", "museum"])
        }
        var text = local + (d.chance(0.05) ? "" : "@") + domain
        if d.chance(0.1) {
            let room = 254 - text.count
            if room > 0 { text = String(repeating: "a", count: max(0, room - d.int(0...3))) + text }
        }
        if d.chance(0.15) { text = text.uppercased() }
        if d.chance(0.1) { text = " " + text + d.pick(["", " "]) }
        return text
    }

    /// A reward: 0 to 130 characters, multi-byte letters, emoji, combining marks, whitespace at the ends.
    public static func reward(_ d: inout Draw) -> String {
        let length = d.pick([0, d.int(1...30), d.int(110...130), 119, 120, 121])
        let alphabet: [String] = d.pick([["a", "b", "1", " ", "$"], ["é", "ż", "ß"], ["🐶", "🐾"], ["e\u{301}", "n\u{303}"], ["€", "a", "ł"]])
        var text = (0..<length).map { _ in d.pick(alphabet) }.joined()
        if d.chance(0.15) { text = d.pick([" ", "  "]) + text + d.pick(["", " ", "\t"]) }
        return text
    }

    /// A value for `field`.
    public static func value(for field: String, _ d: inout Draw) -> String {
        switch field {
        case "phone": return phone(&d)
        case "email": return email(&d)
        default: return reward(&d)
        }
    }
}
