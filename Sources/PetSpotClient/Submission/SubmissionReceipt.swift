/// What a successful submission returns: the password for the summary screen and the new id.
public struct SubmissionReceipt: Sendable, Hashable {
    /// The id of the announcement that now has its photo.
    public let announcementID: String
    /// The 6-digit management password handed to the summary screen.
    public let managementPassword: String

    /// Creates a receipt.
    public init(announcementID: String, managementPassword: String) {
        self.announcementID = announcementID
        self.managementPassword = managementPassword
    }
}
