import ContractKit
import ScenarioEngine

/// The calls of a flow a session plans faults on and expects in the journal, by the part each plays: the create that
/// stores the report, the upload that attaches its photo, the read of one record and the list of the collection.
///
/// Each is a contract id taken from data, never written in Swift: the profile's `flow.report.sends` first, else the
/// contract of the set that does the step (`x-state`: create, attach-file, read, list), as `FlowOperations` finds them.
public struct FlowCalls: Sendable, Hashable {
    /// The part a call plays in the flow.
    public enum Step: String, Sendable, Hashable {
        case create, upload, read, list
    }

    /// The create's contract id.
    public let create: String
    /// The upload's contract id.
    public let upload: String
    /// The read's contract id ("" when the set has none).
    public let read: String
    /// The list's contract id ("" when the set has none).
    public let list: String

    /// The calls of `profile`'s flow over `operations`.
    public init(profile: ClientProfile, operations: FlowOperations) {
        let sends = profile.flow.report.sends
        create = operations.creates.sorted().first { sends.contains($0) } ?? operations.creates.sorted().first ?? sends.first ?? ""
        upload = operations.uploadIDs.first { sends.contains($0) } ?? operations.uploadIDs.first ?? sends.dropFirst().first ?? ""
        read = operations.readIDs.first ?? ""
        list = operations.lists.sorted().first ?? ""
    }

    /// The contract id of `step`.
    public func contract(_ step: Step) -> String {
        switch step {
        case .create: create
        case .upload: upload
        case .read: read
        case .list: list
        }
    }
}
