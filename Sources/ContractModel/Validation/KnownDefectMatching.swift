/// Tells a listed known server defect from a violation, so an exchange showing it is labelled instead of failing a run.
///
/// The seam for `contracts/known-defects.json`: the validator asks every difference it finds, and a non-nil answer is the
/// defect's id, stored in `ExchangeViolation.knownDefect`.
public protocol KnownDefectMatching: Sendable {
    /// The id of the known defect `violation` is an instance of, or nil when it is a real violation.
    func knownDefect(for violation: ExchangeViolation, in exchange: Exchange) -> String?
}

/// No known defects: every difference is a violation.
public struct NoKnownDefects: KnownDefectMatching {
    /// The empty list.
    public init() {}

    /// Always nil.
    public func knownDefect(for violation: ExchangeViolation, in exchange: Exchange) -> String? { nil }
}

/// Known defects decided by a closure, for wiring a defect list (or a test) without a new type.
public struct KnownDefectClosure: KnownDefectMatching {
    private let match: @Sendable (ExchangeViolation, Exchange) -> String?

    /// Labels a violation with the id `match` returns.
    public init(_ match: @escaping @Sendable (ExchangeViolation, Exchange) -> String?) {
        self.match = match
    }

    /// The closure's answer.
    public func knownDefect(for violation: ExchangeViolation, in exchange: Exchange) -> String? {
        match(violation, exchange)
    }
}
