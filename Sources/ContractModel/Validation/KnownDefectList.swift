import ContractKit

/// `contracts/known-defects.json` as the exchange validator's seam: a server-side difference is a known defect when the
/// request sets off a listed entry's trigger and the answer is the one the entry records.
///
/// Both conditions are needed: any 500 from create is not excused, only a 500 to the request the entry names.
public struct KnownDefectList: KnownDefectMatching {
    private let active: [KnownDefect]
    /// The contracts requests are routed by to find their trigger (nil: the bundled folder).
    private let contracts: ContractSet?
    /// Reads upload bodies for their multipart triggers.
    private let multipart: any MultipartScanner

    /// The entries of `defects` still in force on `today` (`YYYY-MM-DD`, UTC); `contracts` routes the requests (pass the
    /// folder the defects came from: a route only it has, such as fb9f56a's users, is found only there).
    public init(_ defects: [KnownDefect], contracts: ContractSet? = nil, multipart: any MultipartScanner, today: String = KnownDefect.today()) {
        active = defects.inForce(today: today)
        self.contracts = contracts
        self.multipart = multipart
    }

    /// The id of the entry that excuses `violation`, or nil.
    public func knownDefect(for violation: ExchangeViolation, in exchange: Exchange) -> String? {
        // A client's own mistake stays the client's, whatever the server then does with it.
        // The status check is cheap and nearly always fails, so the request is re-parsed for its trigger only after it.
        guard violation.side == .server, active.contains(where: { $0.actual.status == exchange.status }),
              let (contractID, trigger) = KnownDefectTriggers.trigger(
                method: exchange.method, path: exchange.path,
                headers: exchange.requestHeaders.map { (name: $0.name, value: $0.value) }, body: exchange.requestBody, contracts: contracts, multipart: multipart),
              let defect = active.defect(contractID: contractID, trigger: trigger),
              exchange.status == defect.actual.status else { return nil }
        if let code = defect.actual.code {
            guard ErrorEnvelopeSummary(body: exchange.responseBody)?.code == code else { return nil }
        }
        return defect.id
    }
}
