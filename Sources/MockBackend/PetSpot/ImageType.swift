/// An image format the backend accepts, recognised by its leading (magic) bytes rather than by any name or declared type.
public enum ImageType: String, Sendable, CaseIterable {
    /// The accepted formats; the raw value is the stored file's extension.
    case jpeg, png, gif, webp, bmp, tiff, heic, heif

    /// The file extension used in `/images/<id>.<ext>`.
    public var fileExtension: String { rawValue }

    /// The Content-Type `/images/<file>` answers with.
    public var contentType: String { "image/\(rawValue)" }

    /// The format of `bytes`, or nil when they are not one of the accepted image formats.
    public static func detect<Bytes: Collection>(_ bytes: Bytes) -> ImageType? where Bytes.Element == UInt8 {
        let head = Array(bytes.prefix(16))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + prefix.count && Array(head[offset..<offset + prefix.count]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        // "BM" alone is too weak: the header's reserved words (bytes 6-9) must be zero in a real bitmap.
        if starts(Array("BM".utf8)) && head.count >= 14 && head[6..<10].allSatisfy({ $0 == 0 }) { return .bmp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("ftyp".utf8), at: 4), head.count >= 12 {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            switch brand {
            case "heic", "heix", "hevc", "hevx", "heim", "heis": return .heic
            case "mif1", "msf1", "heif": return .heif
            default: return nil
            }
        }
        return nil
    }

    /// The format named by a stored file's extension.
    public init?(fileExtension: String) {
        self.init(rawValue: fileExtension)
    }
}
