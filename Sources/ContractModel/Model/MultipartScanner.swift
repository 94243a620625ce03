/// What the real backend's upload middleware (multer, one file under `field`) makes of a request body.
public enum MultipartScan: Sendable, Equatable {
    /// The one file under `field`.
    case file([UInt8])
    /// No file at all: not multipart, only text fields, no parts (the body is the closing delimiter), or a file part
    /// with an empty filename.
    case noFile
    /// A file part under another name (multer's "Unexpected field").
    case otherFilePart(name: String)
    /// No boundary, a syntax error or a cut-off body, a second file under `field`, or a text field of 1 MiB or more.
    case malformed(String)
}

/// Reads a `multipart/form-data` body the way the service's upload middleware does.
///
/// The model states what each outcome answers (`x-state/file/x-errors`); the parser is a face's, so the model needs no
/// network stack (the NIO face brings MultipartKit's).
public protocol MultipartScanner: Sendable {
    /// What the middleware makes of `body`, with `field` as the one file field.
    func scan(field: String, in body: [UInt8], contentType: String?) -> MultipartScan

    /// The same scan for a big body, run where long work belongs (a blocking pool), never on the caller's thread.
    func scanOffThread(field: String, in body: [UInt8], contentType: String?) async -> MultipartScan
}

extension MultipartScanner {
    /// Scans on the caller's thread, for scanners with nowhere better to run.
    public func scanOffThread(field: String, in body: [UInt8], contentType: String?) async -> MultipartScan {
        scan(field: field, in: body, contentType: contentType)
    }
}
