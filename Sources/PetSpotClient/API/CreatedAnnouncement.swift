/// The part of the 201 create answer the submission needs: the id and the management password.
public struct CreatedAnnouncement: Sendable, Equatable, Decodable {
    /// The new announcement's UUID.
    public let id: String
    /// The password that authorises the photo upload; the backend promises 6 digits.
    public let managementPassword: String

    /// Creates a value, e.g. for tests.
    public init(id: String, managementPassword: String) {
        self.id = id
        self.managementPassword = managementPassword
    }
}
