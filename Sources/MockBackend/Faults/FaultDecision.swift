import ContractModel
/// The rule a request matched and the fault it gets.
public struct FaultDecision: Sendable, Equatable {
    /// The rule's name, or `rule N` (1-based position) when it has none.
    public let rule: String
    /// The fault to apply.
    public let fault: Fault
    /// The selector's call number for this request (1-based).
    public let call: Int
}
