import ContractKit
import Foundation

/// Auth cases: every way of presenting credentials, each against every kind of id (the run's own announcement, another
/// of the run's, one nobody holds, text that is no id), tagged with the auth checks (`request.auth.x-errors`) they reach.
extension RequestGenerator {
    /// The kinds of id a path can name: `{slot0}`-style placeholders the sides render, or literal text.
    static let idKinds: [(path: String, label: String, known: Bool)] = [
        ("{slot0}", "the run's announcement", true), ("{slot1}", "another of the run's announcements", true),
        ("{unknown}", "an unknown id", false), ("not-a-uuid", "an id that is not a UUID", false),
    ]

    /// What a credentials case presents, and the names an `x-errors` entry for the check it reaches is likely to carry.
    private struct Presentation {
        let label: String
        let credentials: GeneratedRequest.Credentials
        /// Substrings of the auth check names this presentation reaches (`missing`, `format`, `colon`…); empty for valid ones.
        let reaches: [String]
    }

    /// Every way of presenting Basic credentials, each against every kind of id in the path.
    func authCases(_ contract: Contract) -> [GeneratedRequest] {
        guard let auth = contract.request.auth, auth.scheme != "apiKey", let valid = validRequest(contract, label: "valid") else { return [] }
        let own = GeneratedRequest.Credentials.basic(scheme: "Basic", id: .id(slot: 0), password: .password(slot: 0))
        let wrong = ["password", "wrong", "credential", "forbidden", "mismatch", "unauthorized"]
        let presentations = [
            Presentation(label: "its own id and password", credentials: own, reaches: []),
            Presentation(label: "no Authorization", credentials: .none, reaches: ["missing", "absent", "required"]),
            Presentation(label: "scheme in lower case", credentials: .basic(scheme: "basic", id: .id(slot: 0), password: .password(slot: 0)), reaches: []),
            Presentation(label: "scheme in upper case", credentials: .basic(scheme: "BASIC", id: .id(slot: 0), password: .password(slot: 0)), reaches: []),
            Presentation(label: "Bearer scheme", credentials: .basic(scheme: "Bearer", id: .id(slot: 0), password: .password(slot: 0)), reaches: ["format", "scheme"]),
            Presentation(label: "the scheme alone", credentials: .literal("Basic"), reaches: ["format", "scheme"]),
            Presentation(label: "credentials not base64", credentials: .literal("Basic not*base64!"), reaches: ["format", "base64", "decode", "colon"]),
            Presentation(label: "no colon", credentials: .basic(scheme: "Basic", id: .id(slot: 0), password: nil), reaches: ["colon", "separator"]),
            Presentation(label: "an empty password", credentials: .basic(scheme: "Basic", id: .id(slot: 0), password: .text("")), reaches: ["empty", "blank"]),
            Presentation(label: "an empty user", credentials: .basic(scheme: "Basic", id: .text(""), password: .password(slot: 0)), reaches: ["empty", "blank"]),
            Presentation(label: "a wrong password", credentials: .basic(scheme: "Basic", id: .id(slot: 0), password: .text("000000")), reaches: wrong),
            Presentation(label: "another announcement's password", credentials: .basic(scheme: "Basic", id: .id(slot: 0), password: .password(slot: 1)), reaches: wrong),
            Presentation(label: "another announcement's id with its own password", credentials: .basic(scheme: "Basic", id: .id(slot: 1), password: .password(slot: 0)), reaches: []),
        ]
        var cases: [GeneratedRequest] = []
        for id in Self.idKinds {
            for presentation in presentations {
                var request = valid
                request.label = id.path == "{slot0}" ? presentation.label : "\(presentation.label) for \(id.label)"
                request.credentials = presentation.credentials
                request.path = contract.pathTemplate.replacingOccurrences(of: "{id}", with: id.path)
                request.exercises = authRules(contract, reaches: presentation.reaches)
                // The record is looked up once the header passes: only then does an unknown id reach the not-found rule.
                if !id.known, presentation.reaches.isEmpty || presentation.reaches == wrong {
                    request.exercises += [StatedRule.id(contract.id, "/x-state", "notFound")] + authRules(contract, reaches: ["notfound", "not-found", "unknown", "exist"])
                } else if id.known, presentation.reaches == wrong {
                    request.exercises.append(StatedRule.id(contract.id, "/x-state", "credentials"))
                }
                if id.path != "{slot0}", presentation.reaches.isEmpty, request.label.hasPrefix("its own") {
                    request.label = "its own credentials for \(id.label)"
                }
                cases.append(request)
            }
        }
        return cases
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
        let presentations: [(String?, String, [String])] = [
            (nil, "no Authorization", ["missing", "absent", "required"]), ("", "an empty Authorization", ["missing", "empty", "absent"]),
            ("wrong-token", "a wrong token", ["invalid", "token", "wrong"]), ("Basic dXNlcjpwYXNz", "Basic credentials", ["invalid", "token", "wrong"]),
        ]
        for id in [("{slot2}", "the run's announcement", true), ("{unknown}", "an unknown id", false), ("not-a-uuid", "an id that is not a UUID", false)] {
            for (value, label, reaches) in presentations {
                var request = GeneratedRequest(contractID: contract.id, method: contract.method, path: contract.pathTemplate.replacingOccurrences(of: "{id}", with: id.0),
                                               label: id.0 == "{slot2}" ? label : "\(label) for \(id.1)", credentials: value.map { .literal($0) } ?? .none)
                request.exercises = authRules(contract, reaches: reaches)
                cases.append(request)
            }
            guard adminChecks, !id.2 else { continue }
            var request = GeneratedRequest(contractID: contract.id, method: contract.method, path: contract.pathTemplate.replacingOccurrences(of: "{id}", with: id.0),
                                           label: "the admin token for \(id.1)", credentials: .adminToken)
            request.exercises = authRules(contract, reaches: []) + [StatedRule.id(contract.id, "/x-state", "notFound")]
                + authRules(contract, reaches: ["notfound", "not-found", "unknown", "exist"])
            cases.append(request)
        }
        if adminChecks, deletesSlot {
            var request = GeneratedRequest(contractID: contract.id, method: contract.method, path: contract.pathTemplate.replacingOccurrences(of: "{id}", with: "{slot2}"),
                                           label: "the admin token", credentials: .adminToken)
            request.exercises = authRules(contract, reaches: [])
            request.then = readsAfterWrite(slot: 2, photo: "png")
            cases.append(request)
        }
        return cases
    }

    /// The rule ids of `contract`'s auth checks a presentation reaches: the stated checks whose names contain one of
    /// `reaches`, and the auth rule itself when no checks are named.
    func authRules(_ contract: Contract, reaches: [String]) -> [String] {
        guard let auth = contract.source["request"]?["auth"] else { return [] }
        let checks = auth["x-errors"]?.objectValue?.keys ?? []
        if checks.isEmpty { return [StatedRule.id(contract.id, "/request/auth", "scheme")] }
        return checks.filter { check in
            let name = check.lowercased()
            return reaches.contains { name.contains($0) }
        }.map { StatedRule.id(contract.id, "/request/auth", $0) }
    }
}
