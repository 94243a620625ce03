import Foundation

/// A `multipart/form-data` body with one file part; small enough not to need a library.
struct MultipartFormData {
    let boundary: String
    let body: Data

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    init(fileField name: String, attachment: PhotoAttachment, boundary: String = "SpotCheckBoundary-\(UUID().uuidString)") {
        self.boundary = boundary
        var body = Data()
        body.append(Data("--\(boundary)\r\n".utf8))
        body.append(Data("Content-Disposition: form-data; name=\"\(Self.quoted(name))\"; filename=\"\(Self.quoted(attachment.fileName))\"\r\n".utf8))
        body.append(Data("Content-Type: \(Self.headerSafe(attachment.mimeType))\r\n\r\n".utf8))
        body.append(attachment.data)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        self.body = body
    }

    /// Quotes and line breaks would end the header value early, so they are escaped or dropped.
    private static func quoted(_ value: String) -> String {
        headerSafe(value).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    private static func headerSafe(_ value: String) -> String {
        String(value.unicodeScalars.filter { $0 != "\r" && $0 != "\n" })
    }
}
