import ContractModel
import NIOHTTP1

extension HeaderField {
    /// The lines of NIO's header collection, in order.
    static func list(_ headers: HTTPHeaders) -> [HeaderField] {
        headers.map { HeaderField(name: $0.name, value: $0.value) }
    }
}
