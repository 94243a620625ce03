import ContractKit
import ContractModel
import MockBackend
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Decides whether an answer that breaks its contract is a listed known server defect, and which entries went unseen.
public struct KnownDefectMatcher: Sendable {
    /// The entries in force (not expired).
    public let active: [KnownDefect]
    /// Entries past their `expires` date: they excuse nothing and are reported so someone removes or renews them.
    public let expired: [KnownDefect]

    /// A matcher over `defects`; `today` (`YYYY-MM-DD`, UTC) decides which have expired.
    public init(_ defects: [KnownDefect], today: String = KnownDefect.today()) {
        active = defects.inForce(today: today)
        expired = defects.filter { $0.isExpired(today: today) }
    }

    /// The entry for a documented answer (contract id + response example name), if one is in force.
    public func defect(contractID: String, example: String) -> KnownDefect? {
        active.first { $0.contractID == contractID && $0.example == example }
    }

    /// The entry for a request the mock would classify as `trigger` on `contractID`, if one is in force.
    public func defect(contractID: String, trigger: KnownDefect.Trigger) -> KnownDefect? {
        active.defect(contractID: contractID, trigger: trigger)
    }

    /// The entry for the trigger `request` sets off on `contractID` (a service-wide entry covers an example that
    /// documents no entry of its own), if one is in force.
    func defect(for request: URLRequest, basePath: String, contractID: String, contracts: ContractSet) -> KnownDefect? {
        guard let url = request.url else { return nil }
        let headers = (request.allHTTPHeaderFields ?? [:]).map { (name: $0.key, value: $0.value) }
        // The target may sit under a path of its own (`http://host/petspot`); routes start after it.
        let base = basePath.hasSuffix("/") ? String(basePath.dropLast()) : basePath
        let path = url.path.hasPrefix(base) ? String(url.path.dropFirst(base.count)) : url.path
        guard let found = KnownDefectTriggers.trigger(method: request.httpMethod ?? "GET", path: path, headers: headers,
                                                      body: [UInt8](request.httpBody ?? Data()), contracts: contracts, multipart: MultipartKitScanner()),
              found.contractID == contractID else { return nil }
        return defect(contractID: contractID, trigger: found.trigger)
    }

    /// How `answer` differs from the defect's recorded answer; empty means the server showed exactly this defect.
    static func differences(_ answer: HTTPAnswer, from defect: KnownDefect) -> [Mismatch] {
        var found: [Mismatch] = []
        let actual = defect.actual
        if answer.status != actual.status {
            found.append(Mismatch("known defect \(defect.id): status", expected: "\(actual.status)", actual: "\(answer.status)"))
        }
        let error = (try? JSONValue(parsing: answer.body))?["error"]
        if let code = actual.code, error?["code"]?.stringValue != code {
            found.append(Mismatch("known defect \(defect.id): error.code", expected: "\"\(code)\"", actual: ViolationText.describe(error?["code"])))
        }
        if let message = actual.message, error?["message"]?.stringValue != message {
            found.append(Mismatch("known defect \(defect.id): error.message", expected: "\"\(message)\"", actual: ViolationText.describe(error?["message"])))
        }
        let hasHeader = answer.header("request-id") != nil
        if hasHeader != actual.requestIdHeader {
            found.append(Mismatch("known defect \(defect.id): request-id header", expected: actual.requestIdHeader ? "present" : "absent",
                                  actual: hasHeader ? "present" : "absent"))
        }
        return found
    }
}
