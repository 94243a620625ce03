import ContractKit
import NIOCore
import NIOHTTP1

/// Names the known-defect trigger a request sets off, the way the mock backend sees it; shared by the mock and `run --target`.
public enum KnownDefectTriggers {
    /// The contract and trigger of a request that sets off a listable server defect, or nil for an ordinary request.
    public static func trigger(method: String, path: String, headers: [(name: String, value: String)], body: [UInt8]) -> (contractID: String, trigger: KnownDefect.Trigger)? {
        var httpHeaders = HTTPHeaders()
        for header in headers { httpHeaders.add(name: header.name, value: header.value) }
        let request = MockRequest(method: HTTPMethod(rawValue: method.uppercased()), uri: path, headers: httpHeaders, body: ByteBuffer(bytes: body))
        let route = PetSpotRoute(method: request.method, path: request.path)
        switch route {
        case .createAnnouncement:
            if case .failure(let trigger, _) = JSONBodyParser.parse(request) { return ("createAnnouncement", trigger) }
        case .uploadPhoto:
            // The part name is the bundled upload contract's x-state/file/part; this function has no contracts to read it from.
            switch PetSpotBackend.photoScan(of: request, part: "photo") {
            case .otherFilePart: return ("uploadPhoto", .multipartOtherFilePart)
            case .malformed: return ("uploadPhoto", .multipartMalformed)
            case .file, .noFile: break
            }
        default: break
        }
        return nil
    }
}
