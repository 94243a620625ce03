import Foundation

/// The files multipart cases upload: one per image type the contract names (by magic bytes), and things that are not images.
enum SampleUploads {
    /// A valid 1×1 PNG.
    static let png = Data(base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==") ?? Data()

    /// Each image type by its magic bytes (padded, since detection reads only the start), with a name and declared type.
    static let images: [(label: String, fileName: String, contentType: String, data: Data)] = [
        ("PNG", "photo.png", "image/png", png),
        ("JPEG", "photo.jpg", "image/jpeg", padded([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00])),
        ("GIF", "photo.gif", "image/gif", padded(Array("GIF89a".utf8))),
        ("WEBP", "photo.webp", "image/webp", padded(Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8))),
        ("BMP", "photo.bmp", "image/bmp", padded(Array("BM".utf8) + [0x46, 0, 0, 0])),
        ("TIFF little-endian", "photo.tif", "image/tiff", padded([0x49, 0x49, 0x2A, 0x00])),
        ("TIFF big-endian", "photo.tif", "image/tiff", padded([0x4D, 0x4D, 0x00, 0x2A])),
        ("HEIC", "photo.heic", "image/heic", padded([0, 0, 0, 0x18] + Array("ftypheic".utf8))),
        ("HEIF", "photo.heif", "image/heif", padded([0, 0, 0, 0x18] + Array("ftypmif1".utf8))),
    ]

    /// A PNG of exactly `size` bytes: the valid one padded with zeros (detection reads only the start), or cut short.
    static func png(size: Int) -> Data {
        size <= png.count ? png.prefix(max(0, size)) : png + Data(count: size - png.count)
    }

    /// Text, which no magic-byte check takes for an image.
    static let text = Data("this is not an image\n".utf8)

    private static func padded(_ bytes: [UInt8]) -> Data {
        Data(bytes + [UInt8](repeating: 0, count: 64))
    }
}
