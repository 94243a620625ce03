/// One step of a walk over the operations the contracts declare (`x-state`). A record is named by the step that created
/// it (`name`), so a walk with steps removed still means the same thing: a step naming a record whose create is gone
/// meets a record nobody holds.
struct WalkStep: Sendable, Equatable {
    /// What a create sends in its unique fields (`x-state.unique`).
    enum UniqueChoice: Sendable, Equatable {
        /// Values no record holds.
        case fresh
        /// The values an earlier record was created with (live, deleted or refused), in upper case when asked.
        case reuse(record: Int, upperCase: Bool)
    }

    /// How an authenticate step presents the record's credentials.
    enum Presentation: String, Sendable, Equatable, CaseIterable {
        case asSent = "as registered"
        case keyInUpperCase = "its key in upper case"
        case keyPadded = "its key with surrounding spaces"
        case wrongSecret = "a wrong secret"
        case secretPadded = "its secret with surrounding spaces"
    }

    /// What the step does.
    enum Kind: Sendable, Equatable {
        case create(UniqueChoice)
        case read(record: Int)
        case delete(record: Int)
        /// Attach a file to `record`, opened with the secret of `secretOf` (the record's own, or another's).
        case attach(record: Int, secretOf: Int)
        case list
        case authenticate(record: Int, Presentation)
    }

    /// The contract the step sends.
    let contractID: String
    /// What it does.
    let kind: Kind
    /// Its name: where the generator put it; a create's record is known by it.
    let name: Int

    /// How a report shows the step, e.g. `#3 attach-file to #1 with #0's secret (uploadPhoto)`.
    var display: String {
        let what: String
        switch kind {
        case .create(.fresh): what = "create with fresh unique values"
        case .create(.reuse(let record, let upper)): what = "create reusing #\(record)'s unique values" + (upper ? " in upper case" : "")
        case .read(let record): what = "read #\(record)"
        case .delete(let record): what = "delete #\(record)"
        case .attach(let record, let secretOf): what = "attach a file to #\(record)" + (secretOf == record ? "" : " with #\(secretOf)'s secret")
        case .list: what = "list"
        case .authenticate(let record, let presentation): what = "authenticate as #\(record), \(presentation.rawValue)"
        }
        return "#\(name) \(what) (\(contractID))"
    }

    /// The record the step acts on, if any.
    var record: Int? {
        switch kind {
        case .create, .list: return nil
        case .read(let record), .delete(let record), .attach(let record, _), .authenticate(let record, _): return record
        }
    }
}
