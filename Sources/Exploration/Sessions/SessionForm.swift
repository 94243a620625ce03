import ContractKit
import Foundation
import ScenarioEngine

/// The form a session types into, read from a client profile: the fields of its flow's last step, what kind of value
/// each takes (from its input rules), the rules whose classes the explorer tries, and what a success shows. The session
/// generator and the model take every field name, limit and message from here, so a profile with other fields (the
/// found flow's caregiver phone and address) is explored without a line of Swift naming them.
public struct SessionForm: Sendable {
    /// What kind of value a field takes, which picks its grammar and its fixes.
    public enum ValueKind: Sendable, Equatable {
        /// Digits with separators (a `digits` rule): a phone.
        case digits(ClientProfile.InputRule)
        /// An email address (a `format: email` rule).
        case email
        /// Any text, at most `limit` characters when a `maxLength` rule states one.
        case text(limit: Int?)
    }

    /// The profile the form comes from.
    public let profile: ClientProfile
    /// The calls the flow makes, by step, as the profile and the contract set name them.
    public let calls: FlowCalls

    /// The form of `profile` over `contracts` (the bundled contracts when nil).
    public init(profile: ClientProfile, contracts: ContractSet? = nil) {
        self.profile = profile
        let operations = contracts.map { FlowOperations(contracts: $0, sends: profile.flow.report.sends) } ?? .bundled(for: profile)
        calls = FlowCalls(profile: profile, operations: operations)
    }

    /// The seeds' form (the default profile).
    public static let `default` = SessionForm(profile: .bundledDefault)

    /// The fields the user types into before Continue, in the order the step lists them.
    public var fields: [String] { profile.flow.formFields }

    /// The profile's rules of `field`, if it has any.
    public func input(_ field: String) -> ClientProfile.InputField? { profile.inputs.first { $0.field == field } }

    /// The kind of value `field` takes.
    public func kind(of field: String) -> ValueKind {
        guard let input = input(field) else { return .text(limit: nil) }
        if let digits = input.rule(.digits) { return .digits(digits) }
        if input.rule(.format)?.format == "email" { return .email }
        return .text(limit: input.rule(.maxLength)?.max)
    }

    /// The most characters `field` keeps, if a rule limits it.
    public func limit(of field: String) -> Int? { input(field)?.rule(.maxLength)?.max }

    /// The fields Continue validates (a `required`, `digits` or `format` rule), in form order: the ones whose verdict
    /// decides whether a tap sends.
    public var validated: [String] {
        fields.filter { field in input(field)?.rules.contains { [.required, .digits, .format].contains($0.kind) } ?? false }
    }

    /// What the profile's rules say about `value` in `field`.
    public func verdict(_ field: String, _ value: String) -> InputVerdict {
        SeedInputRules.verdict(field: field, value: value, in: profile)
    }

    /// The inline message of `field`, empty when the profile states none.
    public func message(_ field: String) -> String { SeedInputRules.message(for: field, in: profile) }

    /// A generated value for `field`, from its kind's grammar.
    public func value(for field: String, _ d: inout Draw) -> String {
        switch kind(of: field) {
        case .digits: FieldGrammar.phone(&d)
        case .email: FieldGrammar.email(&d)
        case .text: FieldGrammar.reward(&d)
        }
    }

    /// Values a user types to fix `field`, each valid in every reading of the profile.
    public func fixes(_ field: String) -> [String] {
        let candidates: [String] = switch kind(of: field) {
        case .digits: ["+48 123 456 789", "600-700-800", "1234567"]
        case .email: ["owner@example.com", "Jan.K+pets@mail.example.pl", "a@b.co"]
        case .text: ["$100", ""]
        }
        let valid = candidates.filter { verdict(field, $0).isValid }
        if !valid.isEmpty { return valid }
        // A rule the usual values do not fit (a phone of other lengths) still gets one value it accepts.
        if case .digits(let rule) = kind(of: field) { return [Self.digitBase(rule)] }
        return [""]
    }

    /// A value every reading accepts for each validated field, typed where a class needs its tap to send. The later
    /// field comes first, as the sessions of earlier releases typed them (their seeds replay the same sessions).
    public var sendableContacts: [(field: String, value: String)] {
        validated.reversed().compactMap { field in
            switch kind(of: field) {
            case .digits(let rule): (field, Self.digitBase(rule))
            case .email: (field, "owner@example.com")
            case .text: fixes(field).first { !$0.isEmpty }.map { (field, $0) }
            }
        }
    }

    /// The input rules of the form whose classes every default run tries, then the report's (issue 43; docs/explore.md
    /// "Every input rule's classes"), each citing the profile's source line.
    public var exploredRules: [ExploredInputRule] {
        var rules: [ExploredInputRule] = []
        for field in fields {
            guard let input = input(field) else { continue }
            let trimmed = input.rule(.trim) != nil
            if let digits = input.rule(.digits) {
                rules.append(ExploredInputRule(field: field, kind: .digitText(digits: (digits.min ?? 0)...(digits.max ?? 15)), base: Self.digitBase(digits),
                                               target: .contactField, seedLine: digits.source))
            }
            if let format = input.rule(.format), format.format == "email" {
                // 254: RFC 5321's length, which the sources do not name (beyond it either reading passes).
                rules.append(ExploredInputRule(field: field, kind: .text(trimmed: trimmed, limit: 254, unit: .characters), base: "owner@example.com",
                                               target: .contactField, seedLine: format.source))
                rules.append(ExploredInputRule(field: field, kind: .address, base: "owner@example.com", target: .contactField, seedLine: format.source))
            }
            if let limit = input.rule(.maxLength), input.rule(.digits) == nil, input.rule(.format) == nil {
                let line = [input.rule(.verbatim)?.source, limit.source].compactMap { $0 }.joined(separator: "; ")
                rules.append(ExploredInputRule(field: field, kind: .text(trimmed: trimmed, limit: limit.max, unit: .characters), base: "$100 gift",
                                               target: .contactField, seedLine: line))
            }
        }
        let reportFields = Set(profile.flow.fields)
        return rules + ExploredInputRule.report.filter { reportFields.contains($0.field) }
    }

    /// A valid digit text of `rule`: nine digits where it allows them (else its nearest bound), in groups of three
    /// when a space is one of its separators.
    static func digitBase(_ rule: ClientProfile.InputRule) -> String {
        let count = min(max(9, rule.min ?? 0), rule.max ?? 9)
        let digits = Array(String(repeating: "600700800", count: count / 9 + 1).prefix(count))
        guard rule.separators.contains(" ") || rule.anyCharacters else { return String(digits) }
        return stride(from: 0, to: digits.count, by: 3).map { String(digits[$0..<min($0 + 3, digits.count)]) }.joined(separator: " ")
    }

    /// Why the explorer's session model cannot judge a client of this profile yet, `nil` when it can: it models a
    /// form whose failures show an alert offering to send again or to stay on the form, and a success that shows the
    /// summary or closes.
    public var unsupported: String? {
        if let other = profile.failures.feedback.first(where: { $0.kind != .alert }) {
            return "its failure feedback \(other.id) is a \(other.kind.rawValue), and the session model shows alerts"
        }
        let effects = Set(profile.failures.affordances.map(\.does))
        let modelled = Set(ClientProfile.bundledDefault.failures.affordances.map(\.does))
        if effects != modelled {
            let names = { (set: Set<ClientProfile.Affordance.Effect>) in set.map(\.rawValue).sorted().joined(separator: ", ") }
            return "its failures offer \(names(effects).isEmpty ? "nothing" : names(effects)), and the session model's alerts offer \(names(modelled))"
        }
        return nil
    }
}
