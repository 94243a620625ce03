import CIReports
import Foundation

extension RunReport {
    /// The results for CI reports: one per scenario (or verification check) at the line of its failing step, then the
    /// listed known defects that were not seen or have expired, at their entries.
    ///
    /// `folder` is the folder the results' files are relative to, as shown to a person (e.g. `scenarios`); `pointer` says
    /// where in its file a result is at fault (by default its failing step).
    public func ciResults(suite: String, folder: String, locator: inout SourceLocator,
                          pointer: (ScenarioResult) -> String? = { $0.failure?.pointer }) -> [CIResult]
    {
        var out = results.map { $0.ciResult(suite: suite, folder: folder, pointer: pointer($0), locator: &locator) }
        for defect in unseenKnownDefects {
            out.append(CIResult(
                name: "known defect no longer seen: \(defect.id)", suite: [suite, "known defects"],
                status: strictKnownDefects ? .failed : .passed,
                message: "\(defect.checkName) now answers as documented: remove \(defect.id) from the list",
                location: locator.location(file: defect.file, pointer: defect.pointer), level: strictKnownDefects ? .error : .warning,
                rawStatus: "knownDefectNoLongerSeen"))
        }
        for defect in expiredKnownDefects {
            out.append(CIResult(
                name: "known defect expired: \(defect.id)", suite: [suite, "known defects"], status: .other,
                message: "\(defect.id) expired on \(defect.expires ?? "?") and excuses nothing; fix the server or renew the entry with a reason",
                location: locator.location(file: defect.file, pointer: defect.pointer), level: .warning, rawStatus: "knownDefectExpired"))
        }
        return out
    }
}

extension ScenarioResult {
    /// This result for CI reports, located at `pointer` in its file.
    func ciResult(suite: String, folder: String, pointer: String?, locator: inout SourceLocator) -> CIResult {
        // Verification's exploration results name the contracts folder itself, not a file in it.
        let joined = folder.isEmpty ? file : folder + "/" + file
        let path = FileManager.default.fileExists(atPath: joined) || !FileManager.default.fileExists(atPath: file) ? joined : file
        let location = locator.location(file: path, pointer: pointer)
        var result = CIResult(name: name, suite: [suite], status: .passed, duration: duration, location: location)
        switch status {
        case .passed:
            if !readings.isEmpty { result.details = readings.map { "reading: " + $0 }.joined(separator: "\n") }
        case .failed:
            result.status = .failed
            result.level = .error
            result.message = failure?.headline ?? "failed"
            result.details = failureMessage
            if !assumptions.isEmpty {
                result.details = ([failureMessage ?? ""] + assumptions.map { "assumed: " + $0 }).joined(separator: "\n")
            }
        case .note:
            // Worth a look on the line at fault, never a failed job: the contracts state nothing there.
            result.status = .other
            result.rawStatus = Status.note.rawValue
            result.level = .warning
            result.message = "differs only where the contracts state nothing; the model assumed: " + assumptions.joined(separator: "; ")
            result.details = (assumptions.map { "assumed: " + $0 } + notes).joined(separator: "\n")
        case .skipped:
            result.status = .skipped
            result.message = skipReason ?? "skipped"
        case .knownDefect:
            result.status = .other
            result.rawStatus = Status.knownDefect.rawValue
            result.level = .notice
            result.message = "known server defect, not drift: " + knownDefects.map { "\($0.id) (\($0.reason))" }.joined(separator: "; ")
        }
        return result
    }
}
