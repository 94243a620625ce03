import ContractKit
import NIOCore

@testable import MockBackend

extension AnnouncementStore {
    /// Stores a photo the way the bundled upload contract declares it: `photoUrl` `/images/<id>.<ext>`, `updatedAt` moved.
    @discardableResult
    func setPhoto(id: String, bytes: ByteBuffer, type: ImageType, updatedAt: String) -> Bool {
        setPhoto(id: id, bytes: bytes, type: type, fields: [
            ("photoUrl", .string("/images/\(id).\(type.fileExtension)")), ("updatedAt", .string(updatedAt)),
        ])
    }
}
