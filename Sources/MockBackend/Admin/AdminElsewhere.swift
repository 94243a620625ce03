import ContractModel
import Foundation

extension AdminAPI {
    /// The answer under `/__spotcheck/` on a main port that keeps no admin API (the proxy's): where the dashboard is.
    ///
    /// Refused rather than forwarded, so an old bookmark learns where the dashboard went instead of getting the target's
    /// 404, and a target that is itself a SpotCheck mock does not pass off its own journal and rules as the proxy's.
    static func elsewhere(_ path: String, admin: URL?) -> MockResponse {
        let place = admin.map { "on \($0.absoluteString)\(prefix) (the \"Dashboard on\" line printed at start)" }
            ?? "on the admin port only, and this proxy was started without one"
        return error(.notFound, "\(path) is not forwarded: this port forwards everything else to the target, and the proxy's admin API and dashboard are \(place).")
    }
}
