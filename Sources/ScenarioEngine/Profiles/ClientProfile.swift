import Foundation

/// What a client of one PetSpot flow on one platform must do, read from a profile file (`scenarios/<name>/profile.json`)
/// instead of Swift, so the engine judges every client by its own spec. Every rule keeps the source line it came from,
/// and that line is what a failure quotes.
public struct ClientProfile: Sendable, Equatable {
    /// The profile's name, e.g. `ios-missing-pet`; `--profile` selects by it.
    public let name: String
    /// One sentence for people.
    public let summary: String
    /// Who states the rules, as a failure names them, e.g. `the seeds`.
    public let authority: String
    /// The profile file as shown in problems.
    public let displayPath: String
    /// The folder of the scenarios this profile judges.
    public let libraryDirectory: URL
    /// The source documents the citations refer to, by their short name (e.g. `001`).
    public let sources: [Source]
    /// The flow: its steps and the report it sends.
    public let flow: Flow
    /// The rules for what the user types, one entry per field.
    public let inputs: [InputField]
    /// Which feedback each cause of a failure gets.
    public let failures: Failures
    /// What a success shows.
    public let success: Success

    /// A source document the citations name.
    public struct Source: Sendable, Equatable {
        /// The short name citations use, e.g. `001`.
        public let id: String
        /// Where the document is and what it is.
        public let title: String
    }

    /// The flow a client walks, and the report it sends at its end.
    public struct Flow: Sendable, Equatable {
        /// The flow's name, sent in the protocol's `start` so an adapter can open the right screen.
        public let name: String
        /// The steps in order.
        public let steps: [Step]
        /// What the report sends.
        public let report: Report
        /// What the sources say about an app that stops the user before the step a scenario reaches (`stoppedAt`).
        public internal(set) var earlierStops = EarlierStops.none

        /// Every field of every step.
        public var fields: [String] { steps.flatMap(\.fields) }

        /// The fields of the last step, where the report is submitted: the inputs a failed submission must leave intact.
        public var formFields: [String] { steps.last?.fields ?? [] }
    }

    /// The sources' word on an app stopping the user at an earlier step than a scenario reaches: each rule names a step
    /// and the report fields whose absence it is about, and says whether the sources allow the stop there.
    public struct EarlierStops: Sendable, Equatable {
        /// One stop the sources rule on.
        public struct Rule: Sendable, Equatable {
            /// The step's id (`flow.steps`).
            public let step: String
            /// The report's fields that are all absent when the rule applies (`photo` is the photo).
            public let whenMissing: [String]
            /// Whether the sources allow the stop.
            public let allowed: Bool
            /// Why, as the verdict says it after "because".
            public let because: String
            /// The source line.
            public let source: String
        }
        /// The rules, the first that applies deciding.
        public let rules: [Rule]
        /// What a stop no rule allows is told about a report that lacks nothing a rule names.
        public let nothingMissing: String

        /// No rules: every earlier stop is contradicted.
        public static let none = EarlierStops(rules: [], nothingMissing: "nothing the profile requires there is missing")
    }

    /// One step of a flow and the fields the user fills on it.
    public struct Step: Sendable, Equatable {
        /// The step's id, e.g. `contact`.
        public let id: String
        /// The fields on the step, by their name in the create body.
        public let fields: [String]
        /// The source line.
        public let source: String
    }

    /// The report a finished flow sends.
    public struct Report: Sendable, Equatable {
        /// The `status` the create body must carry.
        public let status: String
        /// What the status says, for people, e.g. `a missing-pet report`.
        public let statusMeans: String
        /// The contracts the submission calls, in order (`createAnnouncement`, then `uploadPhoto`).
        public let sends: [String]
        /// The source line.
        public let source: String
        /// Why the body as a whole matters, for a check with no field of its own (its media type and form).
        public let bodyCitation: String
        /// The sent values checked, in the order a failure lists them.
        public let values: [SentValue]

        /// The sent value of `field`, if the profile checks it.
        public func value(_ field: String) -> SentValue? { values.first { $0.field == field } }
    }

    /// How one field of the create body is compared with what the user entered.
    public struct SentValue: Sendable, Equatable {
        /// The field's name in the create body.
        public let field: String
        /// How strictly it is compared.
        public let check: SentValueCheck
        /// The source line, quoted by a failed check.
        public let citation: String
    }

    /// How strictly a sent value is compared: as strict as the source line and no stricter.
    public enum SentValueCheck: String, Sendable, Equatable, CaseIterable {
        /// Equal to the profile's report status.
        case status
        /// The picked calendar day, as YYYY-MM-DD.
        case day
        /// The entered text, in any case, surrounding whitespace free.
        case anyCase
        /// The entered number, as a JSON number.
        case number
        /// Required once entered; surrounding whitespace free.
        case sentWhenEntered
        /// May be left out; when sent, the entered text (surrounding whitespace free).
        case enteredWhenSent
        /// May be left out; when sent, the entered whole number.
        case wholeNumberWhenSent
        /// The contact input exactly as typed.
        case verbatimInput
        /// The contact input in any case, with or without surrounding whitespace.
        case emailInput
        /// The contact input in any case, sent trimmed: without the surrounding spaces and tabs every trim removes.
        case trimmedEmailInput
        /// The contact input's digits and leading `+`, in any formatting.
        case phoneInput
    }

    /// The rules of one typed field, and the inline message it shows when they reject it.
    public struct InputField: Sendable, Equatable {
        /// The field, by its name in the create body.
        public let field: String
        /// The inline message for a rejected value, if the field has one.
        public let message: String?
        /// The rules, each citing its source.
        public let rules: [InputRule]

        /// The first rule of `kind`.
        public func rule(_ kind: InputRule.Kind) -> InputRule? { rules.first { $0.kind == kind } }
    }

    /// One input rule; the kinds are those `explore` generates input classes from.
    public struct InputRule: Sendable, Equatable {
        /// The kinds of input rule.
        public enum Kind: String, Sendable, CaseIterable {
            /// Surrounding whitespace is removed before the value is judged.
            case trim
            /// The value is kept and sent exactly as typed.
            case verbatim
            /// An empty value is rejected.
            case required
            /// At most `max` characters are kept.
            case maxLength
            /// `min`…`max` digits, optionally a leading `+`, `separators` ignored (or, with `anyCharacters`, everything else).
            case digits
            /// A named format (`email`).
            case format
        }

        /// The rule's kind.
        public let kind: Kind
        /// The source line, quoted by a failure.
        public let source: String
        /// The lower bound (`digits`).
        public let min: Int?
        /// The upper bound (`digits`, `maxLength`).
        public let max: Int?
        /// Whether a leading `+` is allowed (`digits`).
        public let leadingPlus: Bool
        /// Characters ignored between digits (`digits`).
        public let separators: String
        /// Whether every character besides the digits is ignored, letters included (`digits`): a rule that only counts digits.
        public let anyCharacters: Bool
        /// The format's name (`format`).
        public let format: String?
        /// The source line that rejects letters, where it is another line than `source` (`digits`).
        public let letters: String?
        /// Where the sources disagree about a value, the lines on each side; such a value may be accepted or rejected.
        public let conflict: String?
    }

    /// Which feedback each cause of a failure gets, with the readings where the sources conflict.
    public struct Failures: Sendable, Equatable {
        /// The feedback the flow shows, in file order.
        public let feedback: [Feedback]
        /// What the user can do about a failure.
        public let affordances: [Affordance]
        /// Each reading of the sources, by its id.
        public let readings: [String: Reading]
        /// For each cause (`SeedAlertPolicy.Cause`'s raw value), the ids of the readings that allow a feedback for it.
        public let causes: [String: [String]]

        /// The feedback with `id`.
        public func feedback(_ id: String) -> Feedback? { feedback.first { $0.id == id } }
    }

    /// One feedback a failure may get.
    public struct Feedback: Sendable, Equatable {
        /// How it is shown.
        public enum Kind: String, Sendable, CaseIterable { case alert, toast, inline }
        /// The id clients report it by (the protocol's alert `kind`), e.g. `generic`.
        public let id: String
        /// How it is shown.
        public let kind: Kind
        /// The exact text; `nil` where the sources state none (any text is accepted then).
        public let text: String?
        /// The feedback for people, e.g. `the generic alert`.
        public let name: String
        /// The source line.
        public let source: String
    }

    /// One thing the user can do about a failure.
    public struct Affordance: Sendable, Equatable {
        /// What it does.
        public enum Effect: String, Sendable, CaseIterable {
            /// Sends the whole report again.
            case sendAgain
            /// Repeats only the step that failed.
            case retryFailedStep
            /// Dismisses the feedback and keeps the user on the form with the inputs.
            case stayOnForm
        }
        /// The button's title, e.g. `Try Again`.
        public let label: String
        /// What it does.
        public let does: Effect
        /// The source line.
        public let source: String
    }

    /// One reading of the sources: the feedback it gives, and the lines that give it.
    public struct Reading: Sendable, Equatable {
        /// The feedback's id.
        public let feedback: String
        /// The reading for people.
        public let name: String
        /// The source lines.
        public let sources: [String]
    }

    /// What a success shows.
    public struct Success: Sendable, Equatable {
        /// What the user sees after a success.
        public enum Shows: String, Sendable, CaseIterable {
            /// A summary showing the management password.
            case summary
            /// The flow closes.
            case close
        }
        /// What the user sees.
        public let shows: Shows
        /// The pattern of the management password the summary shows (`summary` only).
        public let managementPassword: String?
        /// The analytics events a success emits, in order.
        public let analytics: [String]
        /// The source line.
        public let source: String
    }
}
