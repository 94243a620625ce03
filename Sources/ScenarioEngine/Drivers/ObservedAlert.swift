import ContractKit
import ContractModel

/// An alert as the client shows it.
public struct ObservedAlert: Sendable, Equatable {
    /// `noConnection` or `generic` (or whatever an external client claims).
    public var kind: String
    /// The text shown (the alert's message when the app also shows a title).
    public var message: String
    /// The alert's title, when the app splits its text into a title and a message (`nil`: no title reported).
    public var title: String?
    /// The button titles in order, when the client reports them (`nil`: not reported).
    public var buttons: [String]?

    /// An alert with this kind, text, optional button titles and optional title.
    public init(kind: String, message: String, buttons: [String]? = nil, title: String? = nil) {
        self.kind = kind
        self.message = message
        self.buttons = buttons
        self.title = title
    }

    /// The forms in which the alert can show a given text: the message, the title, or both joined as a person reads them.
    public var readableTexts: [String] {
        guard let title, !title.isEmpty else { return [message] }
        if message.isEmpty { return [title] }
        let trimmed = title.hasSuffix(".") ? String(title.dropLast()) : title
        return [message, title, title + " " + message, trimmed + ". " + message, title + "\n" + message]
    }
}
