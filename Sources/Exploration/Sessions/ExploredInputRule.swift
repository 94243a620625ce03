import ScenarioEngine

/// An input rule the seeds state, with its kind and the seed line (issue 43; docs/explore.md "Every input rule's
/// classes"). Its classes come from its kind (`InputRuleKind.classes`), never from a list of examples, so the explorer
/// tries every class of every rule listed here in each default run.
public struct ExploredInputRule: Sendable, Equatable {
    /// Where the value goes.
    public enum Target: Sendable, Equatable {
        /// Typed into a step-4 field (`editField`) before a Continue.
        case contactField
        /// A step 1-3 value of the report (the session starts at step 4 with it).
        case reportText
        /// A step 3 number of the report.
        case reportNumber
        /// Step 1's microchip.
        case microchip
    }

    /// The input's name: the step-4 field or the report field.
    public let field: String
    /// The rule's kind, which gives its classes.
    public let kind: InputRuleKind
    /// A valid value the classes are built around.
    public let base: String
    /// Where the value goes.
    public let target: Target
    /// The seed file and requirement the rule comes from.
    public let seedLine: String

    /// Every class of the rule.
    public var classes: [InputClass] { kind.classes(base: base) }

    /// The rules whose classes a default run of the seeds' form tries (`SessionForm.exploredRules`).
    public static var all: [ExploredInputRule] { SessionForm.default.exploredRules }

    /// The report's rules, tried wherever the profile's flow has the field: what the session starts with from steps
    /// 1-3 rather than types (the form's own rules come from its profile).
    public static let report: [ExploredInputRule] = [
        // ISO 11784 chips have 15 digits; the seeds say only "digits" (001 Key Entities), so longer is a class, not an error.
        ExploredInputRule(field: "microchipNumber", kind: .digits(longest: 15), base: "981000123456789", target: .microchip,
                          seedLine: "001 FR-003 step 1 (chip), Key Entities \"AnnouncementCreatePayload\"; petspot-api createAnnouncement (digits)"),
        ExploredInputRule(field: "locationLatitude", kind: .coordinate(bound: 90), base: "52.2297", target: .reportNumber,
                          seedLine: "001 FR-003 step 1 (location); 004 latitude input; petspot-api createAnnouncement (-90..90)"),
        ExploredInputRule(field: "locationLongitude", kind: .coordinate(bound: 180), base: "21.0122", target: .reportNumber,
                          seedLine: "001 FR-003 step 1 (location); 004 longitude input; petspot-api createAnnouncement (-180..180)"),
        ExploredInputRule(field: "sex", kind: .choice(["MALE", "FEMALE"]), base: "MALE", target: .reportText,
                          seedLine: "001 Key Entities \"AnnouncementCreatePayload\" (sex); 002 FR-010"),
    ]
}
