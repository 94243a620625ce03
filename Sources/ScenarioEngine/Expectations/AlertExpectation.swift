import ContractKit
import ContractModel

/// The alert a client must show.
public struct AlertExpectation: Sendable, Equatable {
    /// The accepted kinds, `noConnection` or `generic`; two only where platforms legitimately differ (e.g. a dropped connection).
    public var kinds: [String]
    /// The exact text shown; when absent, the standard text of the kind the client showed.
    public var message: String?
    /// The button titles; checked when the client reports them, as a set unless `buttonOrder` pins the order.
    public var buttons: [String]?
    /// Why the buttons must come in the listed order; `nil` compares them as a set (the seeds name the buttons, never their order).
    public var buttonOrder: String?

    /// The alert kinds and their exact texts in the default profile.
    public static var standardMessages: [String: String] { standardMessages(in: .bundledDefault) }

    /// The alert kinds and their exact texts in `profile` (`failures.feedback`); a feedback without an exact text is left out.
    public static func standardMessages(in profile: ClientProfile) -> [String: String] {
        Dictionary(profile.failures.feedback.compactMap { f in f.text.map { (f.id, $0) } }, uniquingKeysWith: { first, _ in first })
    }
}
