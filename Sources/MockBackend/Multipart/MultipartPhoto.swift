import ContractModel
import Foundation
import MultipartKit
import NIOCore
import NIOHTTP1

/// Finds the uploaded file part in a `multipart/form-data` body, the way the real backend's upload middleware sees it.
public enum MultipartPhoto {
    /// The boundary named by a `multipart/form-data` Content-Type, or nil for any other type.
    public static func boundary(contentType: String?) -> String? {
        guard let contentType else { return nil }
        let params = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let type = params.first, type.lowercased() == "multipart/form-data" else { return nil }
        for param in params.dropFirst() {
            guard let eq = param.firstIndex(of: "=") else { continue }
            guard param[..<eq].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            var value = param[param.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            // RFC 2046 limits boundaries to 1...70 characters; MultipartKit requires a non-empty one.
            return (1...70).contains(value.count) ? value : nil
        }
        return nil
    }

    /// The bytes of the first complete file part named `field` (a part with a `filename`), or nil when there is none.
    ///
    /// A part without a filename is a text field, not a file; a part cut off by a truncated body never completes and is ignored.
    public static func file(named field: String, in body: ByteBuffer, contentType: String?) -> ByteBuffer? {
        guard let boundary = boundary(contentType: contentType) else { return nil }
        let parser = MultipartParser(boundary: boundary)
        var headers = HTTPHeaders()
        var data = ByteBuffer()
        var found: ByteBuffer?
        parser.onHeader = { name, value in headers.add(name: name, value: value) }
        parser.onBody = { chunk in
            if found == nil { data.writeBuffer(&chunk) }
        }
        parser.onPartComplete = {
            defer {
                headers = HTTPHeaders()
                data = ByteBuffer()
            }
            guard found == nil, let disposition = headers.first(name: "Content-Disposition") else { return }
            let parameters = Self.parameters(of: disposition)
            guard parameters["name"] == field, parameters["filename"] != nil || parameters["filename*"] != nil else { return }
            found = data
        }
        // A syntax error part-way keeps whatever parts completed before it, like a stream parser would.
        let parsable = body.withUnsafeReadableBytes { MultipartHeaderGuard.parsableLength(of: $0, boundary: boundary) }
        try? parser.execute(body.getSlice(at: body.readerIndex, length: parsable) ?? ByteBuffer())
        return found
    }

    /// Multer's limit on one text field's value.
    public static let maxTextFieldBytes = 1024 * 1024

    /// Reads the body part by part and stops at the first thing multer would fail on, in stream order.
    public static func scan(field: String, in body: ByteBuffer, contentType: String?) -> MultipartScan {
        guard let contentType, contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "multipart/form-data" else {
            return .noFile
        }
        guard let boundary = boundary(contentType: contentType) else { return .malformed("the multipart Content-Type has no usable boundary") }
        // busboy finishes a body whose first delimiter is the closing one (`--b--`) normally, with no parts: no file.
        if body.readableBytesView.firstDelimiterCloses(boundary: boundary) { return .noFile }
        let parser = MultipartParser(boundary: boundary)
        var headers = HTTPHeaders()
        var data = ByteBuffer()
        var result: MultipartScan?
        var found: ByteBuffer?
        parser.onHeader = { name, value in headers.add(name: name, value: value) }
        parser.onBody = { chunk in
            if result == nil { data.writeBuffer(&chunk) }
        }
        parser.onPartComplete = {
            defer {
                headers = HTTPHeaders()
                data = ByteBuffer()
            }
            guard result == nil else { return }
            let parameters = headers.first(name: "Content-Disposition").map(Self.parameters(of:)) ?? [:]
            let name = parameters["name"] ?? ""
            let fileName = parameters["filename"] ?? parameters["filename*"]
            guard let fileName, !fileName.isEmpty else {
                if data.readableBytes >= maxTextFieldBytes { result = .malformed("the text field \(name) is 1 MiB or longer") }
                return
            }
            if name != field {
                result = .otherFilePart(name: name)
            } else if found != nil {
                result = .malformed("a second file under \(field)")
            } else {
                found = data
            }
        }
        let parsable = body.withUnsafeReadableBytes { MultipartHeaderGuard.parsableLength(of: $0, boundary: boundary) }
        do {
            try parser.execute(body.getSlice(at: body.readerIndex, length: parsable) ?? ByteBuffer())
        } catch {
            return result ?? .malformed("the multipart body is malformed (\(error))")
        }
        if let result { return result }
        if parsable < body.readableBytes { return .malformed("the multipart body is malformed") }
        if !body.readableBytesView.containsTerminator(boundary: boundary) { return .malformed("the multipart body ends before its closing boundary") }
        return found.map { .file(Array($0.readableBytesView)) } ?? .noFile
    }

    /// The `key=value` parameters of a Content-Disposition value; quoted values may contain `;` and `=`.
    static func parameters(of disposition: String) -> [String: String] {
        var result: [String: String] = [:]
        var chars = Substring(disposition)
        // Skip the disposition type (`form-data`).
        guard let firstSemicolon = chars.firstIndex(of: ";") else { return result }
        chars = chars[chars.index(after: firstSemicolon)...]
        while !chars.isEmpty {
            chars = chars.drop { $0 == " " || $0 == "\t" || $0 == ";" }
            guard let eq = chars.firstIndex(of: "=") else { break }
            let key = chars[..<eq].trimmingCharacters(in: .whitespaces).lowercased()
            chars = chars[chars.index(after: eq)...].drop { $0 == " " }
            var value = ""
            if chars.first == "\"" {
                chars = chars.dropFirst()
                var escaped = false
                while let c = chars.first {
                    chars = chars.dropFirst()
                    if escaped { value.append(c); escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { break } else { value.append(c) }
                }
                chars = chars.drop { $0 != ";" }
            } else {
                let end = chars.firstIndex(of: ";") ?? chars.endIndex
                value = chars[..<end].trimmingCharacters(in: .whitespaces)
                chars = chars[end...]
            }
            if result[key] == nil { result[key] = value }
        }
        return result
    }
}

extension ByteBufferView {
    /// Whether the first delimiter of the body is the closing one, `--boundary--`: a complete body with no parts.
    ///
    /// busboy searches for `CRLF--boundary` as if a CRLF came before the body, so the first delimiter is either at the
    /// very start (`--boundary`) or after a preamble (`…CRLF--boundary`); what follows it decides: `--` ends the body.
    fileprivate func firstDelimiterCloses(boundary: String) -> Bool {
        let delimiter = Array("\r\n--\(boundary)".utf8)
        return withContiguousStorageIfAvailable { bytes -> Bool in
            var start: Int?
            if bytes.count >= delimiter.count - 2, bytes[0..<(delimiter.count - 2)].elementsEqual(delimiter[2...]) {
                start = delimiter.count - 2
            } else {
                var index = 0
                while index + delimiter.count <= bytes.count {
                    guard let cr = bytes[index...].firstIndex(of: 13) else { break }
                    if cr + delimiter.count <= bytes.count, bytes[cr..<(cr + delimiter.count)].elementsEqual(delimiter) {
                        start = cr + delimiter.count
                        break
                    }
                    index = cr + 1
                }
            }
            guard let start, start + 2 <= bytes.count else { return false }
            return bytes[start] == UInt8(ascii: "-") && bytes[start + 1] == UInt8(ascii: "-")
        } ?? false
    }

    /// Whether the body holds the closing delimiter `CRLF--boundary--` (a cut-off body does not). The CRLF belongs to the
    /// delimiter: `ab--boundary--` inside a part's content closes nothing, and busboy ends such a body with an error.
    fileprivate func containsTerminator(boundary: String) -> Bool {
        let needle = Array("\r\n--\(boundary)--".utf8)
        guard count >= needle.count else { return false }
        // The terminator is near the end; only the tail is searched, so big photos cost nothing extra.
        let tail = Array(self.suffix(needle.count + 64))
        guard tail.count >= needle.count else { return false }
        for start in 0...(tail.count - needle.count) where tail[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }
}
