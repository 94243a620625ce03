import ContractKit
import Foundation
import MockBackend

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Recognises, for `run --target`, an http step whose answer is a listed known server defect.
enum KnownDefectSighting {
    /// The listed defect `answer` shows for the request `sent`: the request sets off the entry's trigger and the answer matches it exactly.
    static func defect(for sent: URLRequest, answer: HTTPAnswer, in matcher: KnownDefectMatcher) -> KnownDefect? {
        guard let url = sent.url else { return nil }
        let headers = (sent.allHTTPHeaderFields ?? [:]).map { (name: $0.key, value: $0.value) }
        let path = url.path.isEmpty ? "/" : url.path
        guard let (contractID, trigger) = KnownDefectTriggers.trigger(method: sent.httpMethod ?? "GET", path: path, headers: headers,
                                                                      body: Array(sent.httpBody ?? Data())),
            let defect = matcher.defect(contractID: contractID, trigger: trigger),
            KnownDefectMatcher.differences(answer, from: defect).isEmpty
        else { return nil }
        return defect
    }
}
