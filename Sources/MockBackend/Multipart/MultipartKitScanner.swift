import ContractModel
import NIOCore
import NIOPosix

/// The model's multipart reader, on MultipartKit (`MultipartPhoto`), with big bodies scanned on NIO's blocking pool.
public struct MultipartKitScanner: MultipartScanner {
    /// A scanner; it has no state.
    public init() {}

    public func scan(field: String, in body: [UInt8], contentType: String?) -> MultipartScan {
        MultipartPhoto.scan(field: field, in: ByteBuffer(bytes: body), contentType: contentType)
    }

    /// Neither event loops nor the few cooperative threads may wait on a 20 MiB scan.
    public func scanOffThread(field: String, in body: [UInt8], contentType: String?) async -> MultipartScan {
        do {
            return try await NIOThreadPool.singleton.runIfActive { scan(field: field, in: body, contentType: contentType) }
        } catch {
            // The shared pool only refuses work while the process shuts down; scanning inline is still correct.
            return scan(field: field, in: body, contentType: contentType)
        }
    }
}
