import CIReports
import ContractKit
import ContractModel
import Foundation

/// `file:line` of a place in a contract: in a folder the contract file's line, in an OpenAPI document the document's line
/// the place was translated from (the set's source map). Files are read once.
struct ContractCitations {
    let contracts: ContractSet
    var locator = SourceLocator()

    init(contracts: ContractSet) {
        self.contracts = contracts
    }

    /// `file:line` of `pointer` in `contract` (the file alone when no line is known).
    mutating func cite(_ contract: Contract, pointer: String) -> String {
        if let map = contracts.openAPISource {
            let key = Self.relativePath(of: contract.file, in: contracts.directory)
            if let place = map.location(ofContractFile: key, pointer: pointer) {
                return place.file + (place.line.map { ":\($0)" } ?? "")
            }
        }
        let location = locator.location(file: contract.file.path, pointer: pointer)
        return LintPrinter.displayPath(contract.file) + (location.line.map { ":\($0)" } ?? "")
    }

    static func relativePath(of file: URL, in directory: URL) -> String {
        let base = directory.standardizedFileURL.path + "/"
        let path = file.standardizedFileURL.path
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : file.lastPathComponent
    }
}
