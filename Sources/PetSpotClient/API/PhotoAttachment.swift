import Foundation

/// The photo chosen in step 2: its bytes, MIME type and file name, uploaded as the `photo` part.
public struct PhotoAttachment: Sendable, Equatable {
    /// The image bytes.
    public var data: Data
    /// The declared MIME type, e.g. `image/jpeg` (the backend checks the bytes, not this).
    public var mimeType: String
    /// The file name sent in the part's Content-Disposition.
    public var fileName: String

    /// Creates an attachment; without a file name one is derived from the MIME type (`photo.jpg`).
    public init(data: Data, mimeType: String, fileName: String? = nil) {
        self.data = data
        self.mimeType = mimeType
        self.fileName = fileName ?? Self.defaultFileName(for: mimeType)
    }

    static func defaultFileName(for mimeType: String) -> String {
        let subtype = mimeType.split(separator: "/").last.map { String($0).lowercased() } ?? ""
        let known = ["jpeg": "jpg", "png": "png", "gif": "gif", "webp": "webp", "heic": "heic", "heif": "heif", "bmp": "bmp", "tiff": "tiff"]
        return "photo." + (known[subtype] ?? "bin")
    }
}
