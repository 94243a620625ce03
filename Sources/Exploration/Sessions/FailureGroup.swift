import ContractKit
import ContractModel

/// One distinct bug: every failing session that broke the same check, with one of them shrunk and confirmed.
public struct FailureGroup: Sendable {
    /// The check the sessions broke (`SessionFailure.signature`), the group's key.
    public var signature: String
    /// The rule of the minimal session's first failed expectation.
    public var rule: ModelRule
    /// The minimal session's first failure, as `spotcheck run` prints it for the saved scenario.
    public var headline: String
    /// The minimal session's whole failure.
    public var message: String
    /// How many sessions hit this check.
    public var sessions: Int
    /// The seed that replays the representative session.
    public var seed: UInt64
    /// The representative (the lowest failing session index).
    public var sessionIndex: Int
    /// The shrunk session as a scenario file.
    public var document: JSONValue
    /// Steps of the representative as generated and as shrunk.
    public var originalSteps: Int
    /// See `originalSteps`.
    public var shrunkSteps: Int
    /// Candidate runs the shrinker spent.
    public var shrinkRuns: Int
    /// The sessions themselves, when this process found the group (`nil` when read back from a JSON report).
    public var counterexample: Counterexample?

    /// The file `--save` writes the scenario to.
    public var fileName: String { "explored-\(rule.rawValue)-seed\(seed)-\(sessionIndex).json" }

    /// The command that replays the exploration that found it.
    public var replay: String { "spotcheck explore --seed \(seed)" }

    /// The group as a JSON report writes it.
    public var json: JSONValue {
        [
            "signature": .string(signature), "rule": .string(rule.rawValue), "statement": .string(rule.statement), "headline": .string(headline),
            "message": .string(message), "sessions": .number(Double(sessions)), "seed": .string(String(seed)), "session": .number(Double(sessionIndex)),
            "originalSteps": .number(Double(originalSteps)), "shrunkSteps": .number(Double(shrunkSteps)), "shrinkRuns": .number(Double(shrinkRuns)),
            "scenario": document,
        ]
    }

    /// A group read back from `json`; `nil` when a key is missing or malformed.
    public init?(json: JSONValue) {
        guard let signature = json["signature"]?.stringValue, let rule = json["rule"]?.stringValue.flatMap(ModelRule.init(rawValue:)),
              let headline = json["headline"]?.stringValue, let message = json["message"]?.stringValue,
              let sessions = json["sessions"]?.numberValue, let seed = json["seed"]?.stringValue.flatMap(UInt64.init),
              let index = json["session"]?.numberValue, let document = json["scenario"] else { return nil }
        self.init(signature: signature, rule: rule, headline: headline, message: message, sessions: Int(sessions), seed: seed, sessionIndex: Int(index),
                  document: document, originalSteps: Int(json["originalSteps"]?.numberValue ?? 0), shrunkSteps: Int(json["shrunkSteps"]?.numberValue ?? 0),
                  shrinkRuns: Int(json["shrinkRuns"]?.numberValue ?? 0))
    }

    /// A group with these values.
    public init(signature: String, rule: ModelRule, headline: String, message: String, sessions: Int, seed: UInt64, sessionIndex: Int,
                document: JSONValue, originalSteps: Int, shrunkSteps: Int, shrinkRuns: Int, counterexample: Counterexample? = nil) {
        self.signature = signature
        self.rule = rule
        self.headline = headline
        self.message = message
        self.sessions = sessions
        self.seed = seed
        self.sessionIndex = sessionIndex
        self.document = document
        self.originalSteps = originalSteps
        self.shrunkSteps = shrunkSteps
        self.shrinkRuns = shrinkRuns
        self.counterexample = counterexample
    }
}
