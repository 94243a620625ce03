import ContractKit
import ContractModel
import Foundation
import MockBackend

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Recognises, for `run --target`, an http step whose answer is a listed known server defect.
enum KnownDefectSighting {
    /// The listed defect whose trigger `sent` sets off, whether or not the server showed it.
    static func triggered(by sent: URLRequest, in matcher: KnownDefectMatcher) -> KnownDefect? {
        guard let url = sent.url else { return nil }
        let headers = (sent.allHTTPHeaderFields ?? [:]).map { (name: $0.key, value: $0.value) }
        guard let (contractID, trigger) = KnownDefectTriggers.trigger(method: sent.httpMethod ?? "GET", path: url.path.isEmpty ? "/" : url.path,
                                                                      headers: headers, body: Array(sent.httpBody ?? Data()), multipart: MultipartKitScanner())
        else { return nil }
        return matcher.defect(contractID: contractID, trigger: trigger)
    }

    /// Entries some step set off and got the documented answer for, and no step saw as the defect: the server was fixed.
    static func unseen(in results: [ScenarioResult]) -> [KnownDefect] {
        let seen = Set(results.flatMap(\.knownDefects).map(\.id))
        var unseen: [KnownDefect] = []
        for defect in results.flatMap(\.knownDefectsNotSeen) where !seen.contains(defect.id) && !unseen.contains(where: { $0.id == defect.id }) {
            unseen.append(defect)
        }
        return unseen
    }

    /// The listed defect `answer` shows for the request `sent`: the request sets off the entry's trigger and the answer matches it exactly.
    static func defect(for sent: URLRequest, answer: HTTPAnswer, in matcher: KnownDefectMatcher) -> KnownDefect? {
        guard let defect = triggered(by: sent, in: matcher), KnownDefectMatcher.differences(answer, from: defect).isEmpty else { return nil }
        return defect
    }
}
