import ContractKit
import ContractModel
import Foundation

/// This run's own values for the fields the contracts declare unique (`x-state.unique`), so a server shared between runs
/// never answers a documented create with a false 409, while a documented 409 still meets the value this run registered.
///
/// An example value is replaced wherever a unique field carries it, in every JSON body the run sends: the same example
/// value always stands for the same fresh value (compared ignoring case, as an email key is), so a create, the login
/// with the same credentials and the duplicate that must conflict stay consistent.
///
/// `verify`'s example checks use `standIn(for:)`; exploration, which sends values on both sides of every length and
/// pattern rule, uses `sameShape(_:)`, which keeps the length and the kind of each character.
public struct UniqueStandIns: Sendable {
    /// The field names some contract declares unique.
    public let fields: Set<String>
    /// Random per run: what makes this run's values its own.
    public let runToken: String

    /// The unique fields of `contracts`, with a fresh run token.
    public init(contracts: ContractSet, runToken: String = UniqueStandIns.makeRunToken()) {
        var fields: Set<String> = []
        for contract in contracts.contracts {
            guard let unique = contract.source["x-state"]?["unique"] else { continue }
            if let names = unique.objectValue?.keys { fields.formUnion(names) }
            if let name = unique.stringValue { fields.insert(name) }
            if let names = unique.arrayValue?.compactMap(\.stringValue) { fields.formUnion(names) }
        }
        if !contracts.contracts.contains(where: { $0.source["x-state"] != nil }) {
            // A document without x-state cannot declare a field unique, but a create that documents a conflict ties it to
            // fields in its own words (`ConflictTie`), and an email address is what people register twice: a shared server
            // must not see either again.
            for contract in contracts.contracts where contract.method == "POST" {
                for response in contract.responses where response.status == 409 {
                    for example in response.examples.isEmpty ? [nil] : response.examples.map(Optional.some) {
                        fields.formUnion(ConflictTie.fields(contract: contract, response: response, example: example, contracts: contracts))
                    }
                }
                guard contract.responses.contains(where: { $0.status == 409 }), var schema = contract.request.body else { continue }
                schema = contracts.followingReference(schema)
                for (name, property) in schema["properties"]?.objectValue ?? JSONObject() where property["format"]?.stringValue == "email" {
                    fields.insert(name)
                }
            }
        }
        self.init(fields: fields, runToken: runToken)
    }

    /// Stand-ins for these fields with this token (a case's own token, for one).
    public init(fields: Set<String>, runToken: String) {
        self.fields = fields
        self.runToken = runToken
    }

    /// Digits-only values shorter than this are lengthened to it by `sameShape(_:)`: fewer digits would repeat across
    /// runs on a long-lived server and meet a value a past run registered (a false conflict).
    public static let shortestDigits = 12

    /// `original` with each ASCII digit and letter replaced by one of the same kind drawn from the token and the value
    /// (upper case stays upper case), everything else kept: the length, the padding, the `@` and dots of an email, so a
    /// value just under or over a stated length or pattern stays just there. A value whose letters and digits are all
    /// digits, with fewer than `shortestDigits` of them, gets more digits after its last one: `-1` or ` 7 ` (a sign or
    /// padding around one digit) would otherwise be one of ten values, and two cases of a run would meet by chance.
    ///
    /// `attempt` draws another value of the same shape (a run that already handed this one out asks again).
    public func sameShape(_ original: String, attempt: Int = 0) -> String {
        let salt = attempt == 0 ? "" : "\u{0}\(attempt)"
        var stream = Array(Self.digits(of: runToken + "\u{0}" + original.lowercased() + salt).utf8)
        var index = 0
        func nextDigit() -> UInt8 {
            if index == stream.count {
                stream += Array(Self.digits(of: String(decoding: stream, as: UTF8.self)).utf8)
            }
            defer { index += 1 }
            return stream[index] - 0x30
        }
        var out: [UInt8] = []
        out.reserveCapacity(original.utf8.count)
        for byte in original.utf8 {
            switch byte {
            case 0x30...0x39: out.append(0x30 + nextDigit())
            case 0x61...0x7A: out.append(0x61 + (nextDigit() * 10 + nextDigit()) % 26)
            case 0x41...0x5A: out.append(0x41 + (nextDigit() * 10 + nextDigit()) % 26)
            default: out.append(byte)
            }
        }
        let isDigit: (UInt8) -> Bool = { (0x30...0x39).contains($0) }
        let isLetter: (UInt8) -> Bool = { (0x61...0x7A).contains($0) || (0x41...0x5A).contains($0) }
        if let last = out.lastIndex(where: isDigit), !original.utf8.contains(where: isLetter) {
            let missing = Self.shortestDigits - out.count(where: isDigit)
            if missing > 0 { out.insert(contentsOf: (0..<missing).map { _ in 0x30 + nextDigit() }, at: last + 1) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `value` with every unique field's non-empty text replaced by this run's stand-in.
    public func applied(to value: JSONValue) -> JSONValue {
        guard !fields.isEmpty, var object = value.objectValue else { return value }
        for name in fields {
            guard let original = object[name]?.stringValue, !original.isEmpty else { continue }
            object[name] = .string(standIn(for: original))
        }
        return .object(object)
    }

    /// The stand-in for one example value; it keeps the value's shape, so it passes the rules the original passes
    /// (digits stay digits of the same length or longer, an email keeps its domain, other text keeps its start).
    public func standIn(for original: String) -> String {
        let digest = Self.digits(of: runToken + "\u{0}" + original.lowercased())
        if original.allSatisfy(\.isASCIIDigitCharacter) {
            return String(("9" + digest).prefix(max(original.count, 15)))
        }
        if let at = original.firstIndex(of: "@") {
            return "sc" + runToken + "-" + original[..<at] + original[at...]
        }
        return original + "-" + runToken
    }

    /// Eight random lower-case letters and digits.
    public static func makeRunToken() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<8).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] })
    }

    /// A long string of decimal digits that depends on every byte of `text` (FNV-1a, widened).
    private static func digits(of text: String) -> String {
        var out = ""
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for round in 0..<3 {
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            hash = (hash ^ UInt64(round)) &* 0x0000_0100_0000_01B3
            out += String(hash % 10_000_000_000)
        }
        return out
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}
