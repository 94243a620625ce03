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
            case .notFound: throw PetSpotError.notFound("Announcement not found")
            case .wrongPassword: throw PetSpotError(.forbidden, "UNAUTHORIZED", "Invalid credentials")
            }
        }
    }

    /// `POST /api/v1/announcements/:id/photos` after auth: the `photo` part, its size, its magic bytes; 201 `{}`.
    func acceptPhoto(id: String, file: ByteBuffer?) throws -> MockResponse {
        guard let file else { throw PetSpotError(.badRequest, "MISSING_FILE", "A photo file is required", field: "photo") }
        guard file.readableBytes < Self.maxPhotoBytes else { throw PetSpotError.payloadTooLarge("File too large") }
        guard let type = ImageType.detect(file.readableBytesView) else {
            throw PetSpotError(.badRequest, "INVALID_FILE_FORMAT", "The file is not a supported image", field: "file")
        }
        guard store.setPhoto(id: id, bytes: file, type: type, updatedAt: Timestamp.string(from: configuration.now())) else {
            // Deleted between the auth check and now.
            throw PetSpotError.notFound("Announcement not found")
        }
        return Self.json(.created, .object(JSONObject()))
    }

    /// Bodies above this size are parsed on NIO's blocking thread pool.
    static let offloadThreshold = 256 * 1024

    /// The `photo` file part of the request body.
    static func photoPart(of request: MockRequest) -> ByteBuffer? {
        MultipartPhoto.file(named: "photo", in: request.body, contentType: request.headers.first(name: "Content-Type"))
    }

    /// The `photo` file part, parsed on the blocking pool: neither event loops nor the few cooperative threads may wait on a 20 MiB scan.
    static func offloadedPhotoPart(of request: MockRequest) async -> ByteBuffer? {
        do {
            return try await NIOThreadPool.singleton.runIfActive { photoPart(of: request) }
        } catch {
            // The shared pool only refuses work while the process shuts down; parsing inline is still correct.
            return photoPart(of: request)
        }
    }

    /// `GET /images/<file>`: the stored bytes with their detected type; any name the store did not generate is 404.
    func image(file: String) throws -> MockResponse {
        guard let photo = store.photo(fileName: file) else { throw PetSpotError.notFound("Image not found") }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: photo.type.contentType)
        return MockResponse(status: .ok, headers: headers, body: photo.bytes)
    }
}
