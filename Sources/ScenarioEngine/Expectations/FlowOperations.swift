import ContractKit
import Foundation

/// The operations a client flow's report goes through, found by what their contracts do (`x-state`), never by the
/// names one API gives them: the creates that store the report and hand out its secret, the uploads that attach its file,
/// the reads of one record of the same collection.
///
/// The journal checks (the password the summary shows, the upload's Basic user and target, the sent body, the record
/// the details loaded) read these, so a profile over another API is judged by that API's own contracts.
public struct FlowOperations: Sendable {
    /// An upload: the path it is sent to and the path parameter that names the record.
    struct Upload: Sendable {
        let path: PathTemplate
        let key: String
    }

    /// The contract ids of the flow's creates.
    public let creates: Set<String>
    /// The member of a create's answer that holds the record's secret (its first `x-state.secret`), if it has one.
    public let secret: String?
    /// The member of a create's answer that names the record: the first field it generates.
    public let identifier: String?
    /// The flow's uploads, by contract id.
    let uploads: [String: Upload]
    /// The reads of one record of the created collection, by contract id.
    let reads: [String: Upload]
    /// The contract ids of the lists of the created collection.
    public let lists: Set<String>

    /// The operations of the flow whose report `sends` these contracts (the profile's `flow.report.sends`); where
    /// `sends` names no create or upload, every contract of the set that does one.
    public init(contracts: ContractSet, sends: [String]) {
        func ids(doing action: StateDeclaration.Action) -> [String] {
            let all = contracts.contracts(doing: action).map(\.id)
            let named = all.filter(sends.contains)
            return named.isEmpty ? all : named
        }
        func keyed(_ id: String) -> (String, Upload)? {
            guard let contract = contracts.contract(id: id),
                  let key = contracts.state.declaration(for: id)?.key ?? contract.path.parameterNames.first else { return nil }
            return (id, Upload(path: contract.path, key: key))
        }
        let creates = ids(doing: .create)
        let declaration = creates.first.flatMap { contracts.state.declaration(for: $0) }
        self.creates = Set(creates)
        secret = declaration?.secret.first
        identifier = declaration?.generate.first?.field
        uploads = Dictionary(ids(doing: .attachFile).compactMap(keyed), uniquingKeysWith: { first, _ in first })
        let collection = declaration?.collection
        let reads = contracts.contracts(doing: .read).map(\.id).filter { contracts.state.declaration(for: $0)?.collection == collection }
        self.reads = Dictionary(reads.compactMap(keyed), uniquingKeysWith: { first, _ in first })
        lists = Set(contracts.contracts(doing: .list).map(\.id).filter { contracts.state.declaration(for: $0)?.collection == collection })
    }

    private init() {
        (creates, secret, identifier, uploads, reads, lists) = ([], nil, nil, [:], [:], [])
    }

    /// No operations: every journal check that needs one finds none to check.
    public static let none = FlowOperations()

    /// The operations of the bundled contracts' flow of `profile` (none if the installation lost them: the contracts a
    /// run loads report that themselves).
    public static func bundled(for profile: ClientProfile) -> FlowOperations {
        bundledContracts.map { FlowOperations(contracts: $0, sends: profile.flow.report.sends) } ?? .none
    }

    private static let bundledContracts: ContractSet? = try? ContractSet.load(from: ContractSet.bundledDirectory)

    /// The creates' contract ids, for a report.
    var createNames: String { creates.sorted().joined(separator: ", ") }

    /// The uploads' contract ids, for a report.
    var uploadNames: String { uploads.keys.sorted().joined(separator: ", ") }

    /// The flow's uploads' contract ids, sorted.
    public var uploadIDs: [String] { uploads.keys.sorted() }

    /// The contract ids that read one record of the flow's collection, sorted.
    public var readIDs: [String] { reads.keys.sorted() }

    /// Whether `contract` is one of the flow's creates.
    public func isCreate(_ contract: String?) -> Bool { contract.map(creates.contains) ?? false }

    /// Whether `contract` is one of the flow's uploads.
    public func isUpload(_ contract: String?) -> Bool { contract.map { uploads[$0] != nil } ?? false }

    /// Whether `contract` reads one record of the flow's collection.
    public func isRead(_ contract: String?) -> Bool { contract.map { reads[$0] != nil } ?? false }

    /// The record an upload to `path` attaches its file to (percent-decoded), by the upload `contract`'s path; nil when
    /// `path` is no upload's.
    public func uploadTarget(_ path: String, contract: String? = nil) -> String? {
        recordID(path, in: contract.flatMap { uploads[$0] }.map { [$0] } ?? Array(uploads.values))
    }

    /// The record a read of `path` asked for.
    public func readTarget(_ path: String, contract: String? = nil) -> String? {
        recordID(path, in: contract.flatMap { reads[$0] }.map { [$0] } ?? Array(reads.values))
    }

    /// The path that reads the record `id` (percent-encoded as one segment), if the flow's collection has a read.
    public func readPath(of id: String) -> String? {
        guard let read = reads.sorted(by: { $0.key < $1.key }).first?.value else { return nil }
        let encoded = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? id
        return read.path.text.replacingOccurrences(of: "{\(read.key)}", with: encoded)
    }

    private func recordID(_ path: String, in candidates: [Upload]) -> String? {
        for candidate in candidates {
            if let id = candidate.path.match(path)?[candidate.key] { return id }
        }
        return nil
    }
}
