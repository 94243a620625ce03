import Foundation

/// A problem in a contract's rule keywords, in the document it was found in (a contract file or a shared schema).
struct RuleProblem: Sendable, Hashable {
    /// The document's path relative to the contracts folder, e.g. `schemas/CreateAnnouncementRequest.json`.
    let documentKey: String
    /// Where in that document.
    let pointer: String
    /// What is wrong, for a person.
    let message: String
}
