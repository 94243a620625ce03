import ContractKit
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

extension PetSpotBackend {
    /// The Basic auth checks of the upload in the real order: 401 for the header, 404 for the id, 403 for the password.
    func authorizeUpload(id: String, headers: HTTPHeaders) throws {
        switch BasicCredentials.parse(authorization: headers.first(name: "Authorization")) {
        case .failure(let problem):
            throw PetSpotError.unauthenticated(problem.message)
        case .success(let credentials):
            switch store.authenticate(id: id, password: credentials.password) {
            case .ok: return
            case .notFound: throw PetSpotError.notFound("Announcement with ID \(id) not found")
            case .wrongPassword: throw PetSpotError(.forbidden, "UNAUTHORIZED", "Invalid credentials for this announcement")
            }
        }
    }

    /// `POST /api/v1/announcements/:id/photos` after auth: the multipart body, the `photo` part, its size, its magic bytes; 201 `{}`.
    ///
    /// Multipart mistakes the real backend answers with 500 get the contract's 400 here, unless the defect is reproduced.
    func acceptPhoto(id: String, scan: MultipartPhoto.Scan) throws -> MockResponse {
        let missingFile = PetSpotError(.badRequest, "MISSING_FILE", "Photo field is required", field: "photo")
        let file: ByteBuffer
        switch scan {
        case .file(let bytes): file = bytes
        case .noFile: throw missingFile
        case .otherFilePart: throw reproducing(.multipartOtherFilePart) ?? missingFile
        case .malformed: throw reproducing(.multipartMalformed) ?? PetSpotError.invalidFormat("Malformed multipart body")
        }
        guard file.readableBytes < Self.maxPhotoBytes else { throw PetSpotError.payloadTooLarge() }
        guard let type = ImageType.detect(file.readableBytesView) else {
            throw PetSpotError(.badRequest, "INVALID_FILE_FORMAT", "File is not a valid image format (JPEG, PNG, GIF, WebP, BMP, TIFF, HEIC, HEIF)", field: "file")
        }
        guard store.setPhoto(id: id, bytes: file, type: type, updatedAt: Timestamp.string(from: configuration.now())) else {
            // Deleted between the auth check and now.
            throw PetSpotError.notFound("Announcement with ID \(id) not found")
        }
        return Self.json(.created, .object(JSONObject()))
    }

    /// Bodies above this size are parsed on NIO's blocking thread pool.
    static let offloadThreshold = 256 * 1024

    /// What multer makes of the request body, with `photo` as the one file field.
    static func photoScan(of request: MockRequest) -> MultipartPhoto.Scan {
        MultipartPhoto.scan(field: "photo", in: request.body, contentType: request.headers.first(name: "Content-Type"))
    }

    /// The scan, run on the blocking pool: neither event loops nor the few cooperative threads may wait on a 20 MiB scan.
    static func offloadedPhotoScan(of request: MockRequest) async -> MultipartPhoto.Scan {
        do {
            return try await NIOThreadPool.singleton.runIfActive { photoScan(of: request) }
        } catch {
            // The shared pool only refuses work while the process shuts down; parsing inline is still correct.
            return photoScan(of: request)
        }
    }

    /// `GET /images/<file>`: the stored bytes with their detected type; any name the store did not generate is 404.
    func image(file: String) throws -> MockResponse {
        guard let photo = store.photo(fileName: file) else { throw PetSpotError.notFound() }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: photo.type.contentType)
        return MockResponse(status: .ok, headers: headers, body: photo.bytes)
    }
}
