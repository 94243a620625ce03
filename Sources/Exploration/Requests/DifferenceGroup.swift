import ContractKit
import ContractModel
import Foundation

/// Generated requests that made the server differ from the model in the same way, under one rule, with the minimal request.
public struct DifferenceGroup: Sendable {
    /// The contract id, or `METHOD path` for a route beyond the contracts.
    public let route: String
    /// What the minimal request does, e.g. `email "" with a valid phone`.
    public let rule: String
    /// How the model answered the minimal request.
    public let model: String
    /// How the server answered it.
    public let server: String
    /// Each way the answers differ.
    public let differences: [AnswerDifference]
    /// How many generated requests differed this way.
    public let count: Int
    /// The minimal request as sent to the server.
    public let minimalRequest: String
    /// The first request generated that differed this way, as sent.
    public let firstRequest: String
    /// The listed known defect the server's answer matches (reported, not failed).
    public let knownDefect: KnownDefect?
    /// A failure (the server breaks a stated rule) or a note naming what the model assumed (failed only under `--strict`).
    public let verdict: DifferenceVerdict
    /// How many requests shrinking sent.
    public let shrinkTries: Int
    /// For a difference a walk found: the shrunk walk's steps in order (the last one differs), which replay it; empty
    /// for a single request.
    public var walk: [String] = []
    /// The same walk as a file that replays it (`verify --save-walks`); nil for a single request.
    public var walkCase: WalkCase?
    /// What the server was compared with: `model`, or `baseline` under `verify --baseline` (whose notes are changes).
    public var oracle = "model"

    /// Whether the server breaks a rule the contracts state here (neither a known defect nor a note).
    public var isFailure: Bool { knownDefect == nil && !verdict.isNote }
    /// Whether the server differs only where the model assumed (and no known defect explains it).
    public var isNote: Bool { knownDefect == nil && verdict.isNote }

    /// Failures first, then notes, then known defects.
    var rank: Int { isFailure ? 0 : isNote ? 1 : 2 }

    /// The route, the rule, how each side answered, how many generated cases differed, and the minimal request.
    public var headline: String {
        var line = "\(route): \(rule) — \(oracle) \(model), server \(server)"
        if model == server, let first = differences.first {
            line = "\(route): \(rule) — \(first.aspect): \(oracle) \(first.model), server \(first.server)"
        }
        if !walk.isEmpty {
            return line + " (\(count) walk\(count == 1 ? "" : "s"); shortest walk: \(walk.count) step\(walk.count == 1 ? "" : "s"), the last one \(minimalRequest))"
        }
        return line + " (\(count) generated case\(count == 1 ? "" : "s"); minimal request: \(minimalRequest))"
    }
}

/// What exploration found: the differences grouped by rule, header changes, and what it left on the server.
public struct ExplorationOutcome: Sendable {
    /// The seed that reproduces the generated requests.
    public let seed: UInt64
    /// How many generated requests were sent (each to the server and the model), not counting shrinking.
    public let casesSent: Int
    /// How many systematic cases the contracts give (sent first; random pairs fill a larger budget).
    public let systematicCases: Int
    /// Requests shrinking sent on top.
    public let shrinkRequests: Int
    /// The differences, one group per rule, failures first.
    public internal(set) var groups: [DifferenceGroup]
    /// Header names the server sends that the model does not, with how many answers carried them.
    public let headersAdded: [(name: String, answers: Int)]
    /// Header names the model sends that the server stopped sending.
    public let headersRemoved: [(name: String, answers: Int)]
    /// The announcements exploration created on the server.
    public let createdOnServer: [String]
    /// Those it deleted again (`--admin-token`), and those it could not.
    public let deletedOnServer: [String]
    public let notDeleted: [String]
    /// Why exploration could not run (no model, or the server would not create the run's announcements).
    public let setupFailure: String?
    /// How long it took.
    public let duration: Duration
    /// Every rule the contracts state with the number of generated cases sent that exercised it, in file order.
    public var coverage: [RuleCoverage] = []
    /// The header names (lower case) the service file states on every answer: the server no longer sending one is a
    /// stated change, not information.
    public var statedHeaders: [String] = []
    /// Against a baseline: the headers whose values the baseline changed between two identical reads (noise, never a change).
    public var baselineNoise: [String] = []
    /// What the server was compared with: `model`, or `baseline` (`verify --baseline`).
    public var oracle = "model"

    /// The removed headers the service file states, with how many answers lacked them.
    public var statedHeadersRemoved: [(name: String, answers: Int)] { headersRemoved.filter { statedHeaders.contains($0.name) } }

    /// Walks run over the declared operations, and the steps they sent (part of `casesSent`).
    public var walks = 0
    public var walkSteps = 0

    /// The stated rules no generated case exercised.
    public var notExercised: [StatedRule] { coverage.filter { $0.cases == 0 }.map(\.rule) }
}
