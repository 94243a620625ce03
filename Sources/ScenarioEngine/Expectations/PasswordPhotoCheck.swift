import ContractKit
import ContractModel
import Foundation

/// The secret on the summary is the one the flow's create returned for the record whose file the upload attached (the
/// seeds' 001 US1/FR-003: the management password of the announcement whose photo step 2 uploaded). Read from the
/// journal alone (create answers and upload statuses), so a proxy can check it too; the operations and the members
/// holding the id and the secret are the contracts' (`FlowOperations`).
enum PasswordPhotoCheck {
    /// Mismatches when `password` opens no record of the journal, or one that never received its file.
    static func check(password: String, journal: [JournalRecord], operations: FlowOperations) -> [Mismatch] {
        guard let secret = operations.secret, let identifier = operations.identifier else { return [] }
        var owner: String?
        var unreadable = false
        for record in journal where operations.isCreate(record.contract) && record.status.map({ (200..<300).contains($0) }) == true {
            guard let text = record.responseText, let body = try? JSONValue(parsing: Data(text.utf8)) else {
                // An unfaulted answer that does not parse was cut short by the journal and may hold the password: no
                // verdict without it. A faulted body is what the client got, so it settles nothing either way.
                if record.fault == nil { unreadable = true }
                continue
            }
            guard body[secret]?.stringValue == password, let id = body[identifier]?.stringValue else { continue }
            owner = id
        }
        guard let owner else {
            if unreadable { return [] }
            return [Mismatch("summary password", expected: "the \(secret) of a record the backend created",
                             actual: "\"\(password)\", which no create answer in the journal returned")]
        }
        // A 201 in the journal means the backend stored the photo, whatever a fault later did to the answer's body.
        let photoTargets = journal.filter { operations.isUpload($0.contract) && $0.status == 201 }
            .compactMap { operations.uploadTarget($0.path, contract: $0.contract) }
        if photoTargets.contains(owner) { return [] }
        let elsewhere = photoTargets.isEmpty ? "no photo upload succeeded" : "the photo went to \(photoTargets.joined(separator: ", "))"
        return [Mismatch(
            "summary password", expected: "the password of the announcement that holds the photo",
            actual: "\"\(password)\" opens \(owner), which has no photo: \(elsewhere)",
            explanation: "the summary shows \"\(password)\", the password of announcement \(owner), but \(elsewhere == "no photo upload succeeded" ? "no photo upload succeeded" : elsewhere + ", not to \(owner)"): the owner's password opens an announcement without its photo (seed 001 US1 scenario 1 and FR-003: step 2 uploads the photo to the announcement step 1 created, and that announcement's password goes to the summary)")]
    }
}
