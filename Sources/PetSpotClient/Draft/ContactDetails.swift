/// Step 4's inputs exactly as typed; trimming and validation happen on Continue, not here.
public struct ContactDetails: Sendable, Hashable {
    /// The phone as typed, formatting kept (`+48 123-456-789`).
    public var phone: String
    /// The email as typed.
    public var email: String
    /// The optional reward text, verbatim.
    public var reward: String

    /// Creates contact details.
    public init(phone: String = "", email: String = "", reward: String = "") {
        self.phone = phone
        self.email = email
        self.reward = reward
    }
}
