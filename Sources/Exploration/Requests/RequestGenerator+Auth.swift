import ContractKit
import ContractModel
import Foundation

/// Auth cases: every way of presenting credentials, each against every kind of id (the run's own announcement, another
/// of the run's, one nobody holds, text that is no id), tagged with the auth checks (`request.auth.x-errors`) they reach.
extension RequestGenerator {
    /// The kinds of id a path can name: `{slot0}`-style placeholders the sides render, or literal text.
    static let idKinds: [(path: String, label: String, known: Bool)] = [
        ("{slot0}", "the run's record", true), ("{slot1}", "another of the run's records", true),
        ("{unknown}", "an unknown id", false), ("not-a-uuid", "an id that is not a UUID", false),
    ]

    /// What a credentials case presents, and which check of `request.auth.x-errors` it fails (nil: none, it passes).
    private struct Presentation {
        let label: String
        let credentials: GeneratedRequest.Credentials
        /// The auth check this presentation fails, in the scheme's check order (`AuthDeclaration.checks`).
        let fails: AuthDeclaration.Check?
    }

    /// Credentials at their edges: the id in upper case, either part with spaces around it, and very long passwords
    /// that share the real one as their prefix (a server that compares only a prefix, as bcrypt does past 72 bytes, or
    /// trims, or folds case, opens the record where the model refuses).
    static let edgePresentations: [(String, GeneratedRequest.IdentityValue, GeneratedRequest.IdentityValue)] = [
        ("its id in upper case", .changed(.id(slot: 0), .upperCased), .password(slot: 0)),
        ("its id with spaces around it", .changed(.id(slot: 0), .padded), .password(slot: 0)),
        ("its password with spaces around it", .id(slot: 0), .changed(.password(slot: 0), .padded)),
        ("its password and 100 more digits", .id(slot: 0), .changed(.password(slot: 0), .extended(String(repeating: "0", count: 100)))),
        ("its password and 200 more bytes", .id(slot: 0), .changed(.password(slot: 0), .extended(String(repeating: "ż", count: 100)))),
    ]

    /// Every way of presenting Basic credentials, each against every kind of id in the path.
    func authCases(_ contract: Contract) -> [GeneratedRequest] {
        guard let auth = contract.request.auth, auth.scheme != "apiKey", let valid = validRequest(contract, label: "valid") else { return [] }
        let own = GeneratedRequest.Credentials.basic(scheme: "Basic", id: .id(slot: 0), password: .password(slot: 0))
        let presentations = [
            Presentation(label: "its own id and password", credentials: own, fails: nil),
            Presentation(label: "no Authorization", credentials: .none, fails: .missing),
            Presentation(label: "scheme in lower case", credentials: .basic(scheme: "basic", id: .id(slot: 0), password: .password(slot: 0)), fails: nil),
            Presentation(label: "scheme in upper case", credentials: .basic(scheme: "BASIC", id: .id(slot: 0), password: .password(slot: 0)), fails: nil),
            Presentation(label: "Bearer scheme", credentials: .basic(scheme: "Bearer", id: .id(slot: 0), password: .password(slot: 0)), fails: .format),
            Presentation(label: "the scheme alone", credentials: .literal("Basic"), fails: .format),
            Presentation(label: "credentials not base64", credentials: .literal("Basic not*base64!"), fails: .base64),
            Presentation(label: "no colon", credentials: .basic(scheme: "Basic", id: .id(slot: 0), password: nil), fails: .noColon),
            Presentation(label: "an empty password", credentials: .basic(scheme: "Basic", id: .id(slot: 0), password: .text("")), fails: .empty),
            Presentation(label: "an empty user", credentials: .basic(scheme: "Basic", id: .text(""), password: .password(slot: 0)), fails: .empty),
            Presentation(label: "a wrong password", credentials: .basic(scheme: "Basic", id: .id(slot: 0), password: .text("000000")), fails: nil),
            Presentation(label: "another record's password", credentials: .basic(scheme: "Basic", id: .id(slot: 0), password: .password(slot: 1)),
                         fails: nil),
            Presentation(label: "another record's id with its own password", credentials: .basic(scheme: "Basic", id: .id(slot: 1), password: .password(slot: 0)),
                         fails: nil),
        ] + Self.edgePresentations.map { label, id, password in
            Presentation(label: label, credentials: .basic(scheme: "Basic", id: id, password: password), fails: nil)
        }
        var cases: [GeneratedRequest] = []
        for id in Self.idKinds {
            for presentation in presentations {
                var request = valid
                request.label = id.path == "{slot0}" ? presentation.label : "\(presentation.label) for \(id.label)"
                request.credentials = presentation.credentials
                request.path = contract.pathTemplate.replacingOccurrences(of: "{id}", with: id.path)
                request.exercises = authRules(contract, failing: presentation.fails)
                // The record is looked up once the header passes (x-state.notFound), and only a record found has a
                // password to mismatch (x-state.credentials.mismatch): the README's order for attach-file.
                let mismatch = Self.opensNot(id.path, with: presentation.credentials)
                if presentation.fails == nil, !id.known {
                    request.exercises += stateRules(contract, "notFound")
                } else if presentation.fails == nil, mismatch {
                    request.exercises += stateRules(contract, "credentials")
                }
                if id.path != "{slot0}", presentation.fails == nil, request.label.hasPrefix("its own") {
                    request.label = "its own credentials for \(id.label)"
                }
                cases.append(request)
            }
        }
        return cases
    }

    /// Whether Basic `credentials` carry a password other than that of the run's record `path` names (`{slotN}`): the
    /// record is found but `x-state.credentials` does not open it. False for a path naming no record of the run.
    static func opensNot(_ path: String, with credentials: GeneratedRequest.Credentials) -> Bool {
        guard path.hasPrefix("{slot"), let slot = Int(path.dropFirst(5).dropLast()), case .basic(_, _, let password?) = credentials else { return false }
        return password != .password(slot: slot)
    }

    /// The admin DELETE's refusals against each kind of id; with the admin token, each id and last the run's slot 2,
    /// read back afterwards (the record, its photo, the list).
    func deleteCases() -> [GeneratedRequest] {
        let deletes = contracts.contracts.filter { $0.method == "DELETE" && $0.request.auth?.scheme == "apiKey" && $0.pathTemplate.contains("{id}") }
        var cases = deletes.dropFirst().flatMap { deleteCases($0, deletesSlot: false) }
        if let first = deletes.first { cases += deleteCases(first, deletesSlot: true) }
        return cases
    }

    private func deleteCases(_ contract: Contract, deletesSlot: Bool) -> [GeneratedRequest] {
        var cases: [GeneratedRequest] = []
        // An empty header is a missing one only where the contract says so (Express's `!req.headers.authorization`).
        let emptyIsMissing = contract.source["request"]?["auth"]?["x-empty-is-missing"]?.boolValue == true
        let presentations: [(String?, String, AuthDeclaration.Check)] = [
            (nil, "no Authorization", .missing), ("", "an empty Authorization", emptyIsMissing ? .missing : .mismatch),
            ("wrong-token", "a wrong token", .mismatch), ("Basic dXNlcjpwYXNz", "Basic credentials", .mismatch),
        ]
        for id in [("{slot2}", "the run's record", true), ("{unknown}", "an unknown id", false), ("not-a-uuid", "an id that is not a UUID", false)] {
            for (value, label, check) in presentations {
                var request = GeneratedRequest(contractID: contract.id, method: contract.method, path: contract.pathTemplate.replacingOccurrences(of: "{id}", with: id.0),
                                               label: id.0 == "{slot2}" ? label : "\(label) for \(id.1)", credentials: value.map { .literal($0) } ?? .none)
                request.exercises = authRules(contract, failing: check)
                cases.append(request)
            }
            guard adminChecks, !id.2 else { continue }
            var request = GeneratedRequest(contractID: contract.id, method: contract.method, path: contract.pathTemplate.replacingOccurrences(of: "{id}", with: id.0),
                                           label: "the admin token for \(id.1)", credentials: .adminToken)
            request.exercises = authRules(contract, failing: nil) + stateRules(contract, "notFound")
            cases.append(request)
        }
        if adminChecks, deletesSlot {
            var request = GeneratedRequest(contractID: contract.id, method: contract.method, path: contract.pathTemplate.replacingOccurrences(of: "{id}", with: "{slot2}"),
                                           label: "the admin token", credentials: .adminToken)
            request.exercises = authRules(contract, failing: nil)
            request.then = readsAfterWrite(slot: 2, photo: "png")
            cases.append(request)
        }
        return cases
    }

    /// The rule ids of `contract`'s auth a presentation reaches: the stated check it fails (`request.auth.x-errors`),
    /// or the auth rule itself when the contract names no checks and the presentation fails one.
    func authRules(_ contract: Contract, failing check: AuthDeclaration.Check?) -> [String] {
        guard let check, let auth = contract.source["request"]?["auth"] else { return [] }
        guard let checks = auth["x-errors"]?.objectValue, !checks.isEmpty else { return [StatedRule.id(contract.id, "/request/auth", "scheme")] }
        return checks[check.rawValue] == nil ? [] : [StatedRule.id(contract.id, "/request/auth", check.rawValue)]
    }

    /// The rule ids of `contract`'s `x-state` entry `key` (`notFound`, `credentials`), as `StatedRules` lists them; none
    /// when the contract does not state it.
    func stateRules(_ contract: Contract, _ key: String) -> [String] {
        guard let state = contract.source["x-state"]?.objectValue, state[key] != nil else { return [] }
        return StatedRules.stateRules([key: state[key] ?? .null], request: contract.source["request"])
            .map { StatedRule.id(contract.id, $0.location, $0.keyword) }
    }
}
