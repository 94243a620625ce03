import Foundation

/// A Foundation file error in words: on Linux `localizedDescription` is "The operation could not be completed.
/// (NSCocoaErrorDomain error 256.)", which says neither what failed nor why; the POSIX cause underneath does.
public enum FileErrorText {
    /// Why a file operation failed, e.g. "no such file or directory", "permission denied", "it is a folder".
    public static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return posix(Int32(underlying.code))
        }
        if ns.domain == NSPOSIXErrorDomain { return posix(Int32(ns.code)) }
        if ns.domain == NSCocoaErrorDomain {
            switch CocoaError.Code(rawValue: ns.code) {
            case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or directory"
            case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
            case .fileReadInapplicableStringEncoding, .fileWriteInapplicableStringEncoding: return "the text is not valid UTF-8"
            case .fileReadTooLarge: return "the file is too large to read"
            case .fileWriteOutOfSpace: return "no space left on the device"
            case .fileWriteVolumeReadOnly: return "the file system is read-only"
            case .fileWriteFileExists: return "a file with that name already exists"
            case .fileReadCorruptFile: return "the file is damaged or in an unknown format"
            case .fileReadUnknown: return diagnose(path(of: ns)) ?? "the file could not be read"
            case .fileWriteUnknown: return diagnose(path(of: ns)) ?? "the file could not be written"
            default: break
            }
        }
        if let described = ns.userInfo[NSLocalizedDescriptionKey] as? String { return described }
        return "\(error)"
    }

    /// `action path: reason`, e.g. "cannot read contracts/x.json: permission denied".
    public static func describe(_ error: any Error, _ action: String, _ path: String) -> String {
        "\(action) \(path): \(reason(error))"
    }

    /// The path a Foundation error names, if it names one.
    private static func path(of error: NSError) -> String? {
        (error.userInfo[NSFilePathErrorKey] as? String) ?? (error.userInfo[NSURLErrorKey] as? URL)?.path
    }

    /// Why an operation on `path` failed when Foundation only says "unknown" (e.g. reading a folder on Linux): looked up.
    private static func diagnose(_ path: String?) -> String? {
        guard let path else { return nil }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            if isFolder.boolValue { return "it is a folder, not a file" }
            if !FileManager.default.isReadableFile(atPath: path) { return "permission denied" }
            return nil
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, !FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder) {
            return "no such file or directory (the folder \(parent) does not exist)"
        }
        if !parent.isEmpty, !isFolder.boolValue { return "\(parent) is a file, not a folder" }
        if !parent.isEmpty, !FileManager.default.isWritableFile(atPath: parent) { return "permission denied on the folder \(parent)" }
        return "no such file or directory"
    }

    private static func posix(_ code: Int32) -> String {
        switch code {
        case EISDIR: return "it is a folder, not a file"
        case ENOTDIR: return "a part of the path is not a folder"
        case ENOSPC: return "no space left on the device"
        default: return String(cString: strerror(code)).lowercased()
        }
    }
}
