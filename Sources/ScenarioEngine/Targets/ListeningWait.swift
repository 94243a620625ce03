import ContractKit
import ContractModel
import Foundation
import Logging
import MockBackend

/// Waits for a server to listen again after a rule change ended a `refuse` window (it re-binds asynchronously).
enum ListeningWait {
    static func untilAccepting(_ server: MockServer, rules: [FaultRule]) async throws(TargetError) {
        // New rules may take the server offline on purpose; then there is nothing to wait for.
        if rules.contains(where: { $0.isUnconditional && $0.fault.kind == "refuse" }) { return }
        for _ in 0..<400 where server.isRefusing {
            try? await Task.sleep(for: .milliseconds(5))
        }
        if server.isRefusing { throw TargetError("the server did not listen again within 2 s after its refuse rule was removed") }
    }
}
