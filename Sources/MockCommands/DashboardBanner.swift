import Foundation

/// The start-up line that tells where the dashboard is: on the admin port when there is one, since it stays up while offline.
enum DashboardBanner {
    /// `Dashboard on http://…/__spotcheck/`, with a hint when only the main port serves it.
    static func line(base: URL, admin: URL?) -> String {
        if let admin { return "Dashboard on \(admin.absoluteString)/__spotcheck/\n" }
        return "Dashboard on \(base.absoluteString)/__spotcheck/ (add --admin-port 0 to keep it reachable while the mock is offline)\n"
    }
}
