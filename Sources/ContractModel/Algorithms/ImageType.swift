import Foundation

/// An image format the backend accepts, recognised by its leading (magic) bytes rather than by any name or declared type.
public enum ImageType: String, Sendable, CaseIterable {
    /// The accepted formats; the raw value is the stored file's extension.
    case jpeg, png, gif, webp, bmp, tiff, heic, heif

    /// The file extension used in `/images/<id>.<ext>`.
    public var fileExtension: String { rawValue }

    /// The Content-Type `/images/<file>` answers with.
    public var contentType: String { "image/\(rawValue)" }

    /// The format of `bytes`, or nil when they are not one of the accepted image formats.
    ///
    /// This is file-type 21.1.1's `fileTypeFromBuffer` as the real backend calls it, reduced to the MIME types it
    /// accepts. The order of the checks is file-type's: it answers with the first signature that matches, so two
    /// bytes `BM` are a bitmap whatever follows, and a TIFF or PNG is only an image once its directory or chunks read
    /// as file-type reads them (running out of bytes there is an error, which the backend answers as not an image).
    public static func detect<Bytes: RandomAccessCollection>(_ bytes: Bytes) -> ImageType?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        FileTypeSniffer(bytes: bytes).imageType
    }

    /// The format named by a stored file's extension.
    public init?(fileExtension: String) {
        self.init(rawValue: fileExtension)
    }
}

/// The part of file-type 21.1.1's detector that can end in an accepted image type.
private struct FileTypeSniffer<Bytes: RandomAccessCollection> where Bytes.Element == UInt8, Bytes.Index == Int {
    let bytes: Bytes

    private var size: Int { bytes.count }

    var imageType: ImageType? {
        guard size > 1 else { return nil }
        if starts([0x42, 0x4D]) { return .bmp }
        if starts(Array("GIF".utf8)) { return .gif }
        if starts([0xFF, 0xD8, 0xFF]) { return byte(3) == 0xF7 ? nil : .jpeg }  // FF D8 FF F7 is JPEG-LS
        // A TIFF header that is not version 42 or 43 falls through to later signatures, none of them an accepted image.
        if starts([0x49, 0x49]) || starts([0x4D, 0x4D]) { return tiff(bigEndian: byte(0) == 0x4D) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return png() }
        if starts(Array("ftyp".utf8), at: 4), byte(8) & 0x60 != 0 { return isoBrand() }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webp }
        return nil
    }

    /// file-type peeks the head into a zero-filled buffer, so a signature longer than the file compares against zeros.
    private func byte(_ offset: Int) -> UInt8 { offset < size ? bytes[bytes.startIndex + offset] : 0 }

    private func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
        prefix.indices.allSatisfy { byte(offset + $0) == prefix[$0] }
    }

    /// A token read from the stream: nil where file-type's tokenizer would hit the end of the file.
    private func uint16(at offset: Int, bigEndian: Bool) -> Int? {
        guard offset + 2 <= size else { return nil }
        let a = Int(byte(offset)), b = Int(byte(offset + 1))
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    private func headerUInt(_ offset: Int, count: Int, bigEndian: Bool) -> Int {
        (0..<count).reduce(0) { value, i in
            value | Int(byte(offset + (bigEndian ? count - 1 - i : i))) << (8 * i)
        }
    }

    private func tiff(bigEndian: Bool) -> ImageType? {
        let version = headerUInt(2, count: 2, bigEndian: bigEndian)
        if version == 43 { return .tiff }
        guard version == 42 else { return nil }
        let ifdOffset = headerUInt(4, count: 4, bigEndian: bigEndian)
        if ifdOffset >= 6 {
            if starts(Array("CR".utf8), at: 8) { return nil }  // Canon CR2
            if ifdOffset >= 8 {
                let id1 = headerUInt(8, count: 2, bigEndian: bigEndian), id2 = headerUInt(10, count: 2, bigEndian: bigEndian)
                if (id1 == 0x1C && id2 == 0xFE) || (id1 == 0x1F && id2 == 0x0B) { return nil }  // Nikon NEF
            }
        }
        // The directory: a tag count, then 12 bytes per tag whose first two are its id (skipping past the end is allowed,
        // reading past it is not).
        let start = min(ifdOffset, size)
        guard let tags = uint16(at: start, bigEndian: bigEndian) else { return nil }
        for n in 0..<tags {
            guard let tag = uint16(at: start + 2 + 12 * n, bigEndian: bigEndian) else { return nil }
            if tag == 50_341 || tag == 50_706 { return nil }  // Sony ARW, Adobe DNG
        }
        return .tiff
    }

    private func png() -> ImageType? {
        var position = 8
        repeat {
            guard position + 8 <= size else { return nil }
            let length = Int32(bitPattern: UInt32(headerUInt(position, count: 4, bigEndian: true)))
            let type = String(decoding: (position + 4..<position + 8).map(byte), as: UTF8.self)
            position += 8
            guard length >= 0 else { return nil }
            switch type {
            case "IDAT": return .png
            case "acTL": return nil  // APNG
            default: position = min(size, position + Int(length) + 4)
            }
        } while position + 8 < size
        return .png
    }

    private func isoBrand() -> ImageType? {
        var brand = String(decoding: (8..<12).map(byte), as: Unicode.ASCII.self)
        if let nul = brand.firstIndex(of: "\0") { brand.replaceSubrange(nul...nul, with: " ") }
        switch brand.trimmingCharacters(in: .whitespaces) {
        case "heic", "heix": return .heic
        case "mif1": return .heif
        default: return nil  // AVIF, image sequences and video are not accepted
        }
    }
}
