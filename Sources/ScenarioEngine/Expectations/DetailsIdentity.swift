/// The details screen's identity, judged by id before its values: a client that loaded another record than the
/// one asked for differs in every field, and one line naming both ids says why better than a list of field differences.
enum DetailsIdentity {
    /// `mismatches` with the field differences of the details replaced by one identity mismatch when the step's
    /// reads of one record (`operations`) fetched another record than `requested`.
    static func check(_ mismatches: [Mismatch], requested: String?, stepRecords: [JournalRecord], operations: FlowOperations) -> [Mismatch] {
        guard let requested else { return mismatches }
        let fetched = stepRecords.filter { operations.isRead($0.contract) }.compactMap { operations.readTarget($0.path, contract: $0.contract) }
        guard let wrong = fetched.last(where: { $0.lowercased() != requested.lowercased() }) else { return mismatches }
        let identity = Mismatch("details record", expected: requested, actual: wrong,
                                explanation: "details show record \(wrong), expected \(requested)")
        let presentation = mismatches.filter { $0.subject.hasPrefix("details ") && $0.subject != "details state" && $0.subject != "details message" }
        return [identity] + mismatches.filter { !presentation.contains($0) }
    }
}
