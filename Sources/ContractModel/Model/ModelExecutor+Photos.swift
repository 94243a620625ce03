import ContractKit
import Foundation

extension ModelExecutor {
    /// The checks before the file, in the declared order: the auth header's checks (`request.auth.x-errors`), then the
    /// record named by `key` (`notFound`), then the stored secret against the sent one (`credentials.mismatch`).
    func authorizeUpload(_ endpoint: DeclaredEndpoint, parameters: [String: String], headers: HeaderFields) throws {
        let state = try endpoint.requireState()
        let credentials = try endpoint.requireAuth().basicCredentials(in: headers, parameters: parameters)
        guard let opener = state.credentials, let notFound = state.notFound else { throw UndeclaredState(contractID: endpoint.contractID, what: "credentials") }
        let layout = try endpoint.requireLayout()
        let id = state.key.flatMap { parameters[$0] } ?? ""
        switch store.authenticate(in: layout.index, id: id, secret: credentials.password) {
        case .ok: return
        case .notFound: throw ModelError(notFound, parameters: parameters)
        case .wrongPassword: throw ModelError(opener.mismatch, parameters: parameters)
        }
    }

    /// The attach-file after auth: the declared file rules in their order, then the file is stored, its published address
    /// set in the declared field and the generated fields (`updatedAt`) made anew; 201 `{}`.
    ///
    /// Multipart mistakes the real backend answers with 500 get the contract's answers here, unless the defect is reproduced.
    func acceptPhoto(_ endpoint: DeclaredEndpoint, parameters: [String: String], scan: MultipartScan) throws -> ModelAnswer {
        let state = try endpoint.requireState()
        guard let declared = state.file else { throw UndeclaredState(contractID: endpoint.contractID, what: "x-state/file") }
        var detected: ImageType??
        func type(of bytes: [UInt8]) -> ImageType? {
            if let detected { return detected }
            let type = ImageType.detect(bytes)
            detected = .some(type)
            return type
        }
        for (rule, answer) in declared.rules {
            let problem = ModelError(answer, parameters: parameters)
            switch (rule, scan) {
            case (.malformed, .malformed): throw reproducing(.multipartMalformed, on: endpoint.contractID) ?? problem
            case (.required, .noFile): throw problem
            case (.required, .otherFilePart): throw reproducing(.multipartOtherFilePart, on: endpoint.contractID) ?? problem
            case (.maxFileBytes, .file(let bytes)) where bytes.count >= (declared.maxBytes ?? .max): throw problem
            case (.detect, .file(let bytes)) where type(of: bytes) == nil: throw problem
            default: continue
            }
        }
        guard case .file(let bytes) = scan, let type = type(of: bytes) else {
            // Every outcome of the scan has a rule (lint demands each); reaching here means the file declares too few.
            throw UndeclaredState(contractID: endpoint.contractID, what: "x-state/file/x-errors for this upload")
        }
        var values = parameters
        values["ext"] = type.fileExtension
        var fields: [(String, JSONValue)] = [(declared.field, .string(DeclaredAnswer.fill(declared.url, values)))]
        for (field, generator) in state.generate { fields.append((field, generated(generator))) }
        let id = state.key.flatMap { parameters[$0] } ?? ""
        guard store.setPhoto(in: try endpoint.requireLayout().index, id: id, bytes: bytes, type: type, fields: fields) else {
            // Deleted between the auth check and now.
            guard let notFound = state.notFound else { throw UndeclaredState(contractID: endpoint.contractID, what: "notFound") }
            throw ModelError(notFound, parameters: parameters)
        }
        return Self.json(.created, .object(JSONObject()))
    }

    /// The upload's 413 when the body is too large to read at all: the declared answer of the file size rule.
    func uploadTooLarge(_ endpoint: DeclaredEndpoint, parameters: [String: String]) throws -> ModelError {
        guard let answer = try endpoint.requireState().file?.answer(.maxFileBytes) else {
            throw UndeclaredState(contractID: endpoint.contractID, what: "x-state/file/x-errors/maxFileBytes")
        }
        return ModelError(answer, parameters: parameters)
    }

    /// A server-made value that needs no record: the time-based generators (attach-file's `updatedAt`).
    func generated(_ generator: StateGenerator) -> JSONValue {
        switch generator {
        case .nowISOMilliseconds: return .string(Timestamp.string(from: configuration.now()))
        case .uuidV4: return .string(store.nextUUID())
        case .digits6: return .string(store.nextDigits6())
        case .jwtHS256: return .null
        }
    }

    /// Bodies above this size are scanned off the caller's thread (`MultipartScanner.scanOffThread`).
    static let offloadThreshold = 256 * 1024

    /// What multer makes of the request body, with the declared file part (`x-state/file/part`) as the one file field.
    func photoScan(of request: ModelRequest, part: String) -> MultipartScan {
        multipart.scan(field: part, in: request.body, contentType: request.headers.first(name: "Content-Type"))
    }

    /// The scan of a big body, where the scanner runs long work: neither event loops nor the few cooperative threads may
    /// wait on a 20 MiB scan.
    func offloadedPhotoScan(of request: ModelRequest, part: String) async -> MultipartScan {
        await multipart.scanOffThread(field: part, in: request.body, contentType: request.headers.first(name: "Content-Type"))
    }

    /// `GET /images/<file>` (read-file): the stored bytes with their detected type; any name the store did not generate
    /// answers the declared `notFound`.
    func image(_ endpoint: DeclaredEndpoint, parameters: [String: String]) throws -> ModelAnswer {
        let state = try endpoint.requireState()
        let layout = try endpoint.requireLayout()
        guard let photo = state.key.flatMap({ parameters[$0] }).flatMap({ store.photo(in: layout.index, fileName: $0) }) else {
            guard let notFound = state.notFound else { throw UndeclaredState(contractID: endpoint.contractID, what: "notFound") }
            throw ModelError(notFound, parameters: parameters)
        }
        var headers = HeaderFields()
        headers.add(name: "Content-Type", value: photo.type.contentType)
        return ModelAnswer(status: .ok, headers: headers, body: photo.bytes)
    }
}
