import ContractModel
/// A deliberate departure from the contracts, for proving that `spotcheck verify` catches a drifting server.
public enum ContractDrift: String, CaseIterable, Sendable {
    /// Creation answers `password` for the secret the create declares (petspot-api.md's `managementPassword`).
    case renamedManagementPassword
    /// A stored photo answers 200 instead of 201.
    case photoUploadAnswers200
    /// Photo upload demands `Authorization: Bearer <base64(id:password)>` and rejects Basic, like the later API.
    case bearerInsteadOfBasic
    /// No `request-id` header on any answer.
    case missingRequestID
    /// An unknown property in a create body answers the contracts' 500 instead of their unknown-key 400.
    case serverErrorOnUnknownFields
}
