import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Compaction: the live state becomes generation N+1's snapshot and an empty log takes over, so start time and disk
/// use follow the live data, not the history.
///
/// The order makes every crash harmless. The new generation's photos, snapshot (temporary name, fsync, rename,
/// directory fsync) and empty log are written beside the old generation, which nothing has touched; replacing the
/// marker (temporary name, fsync, rename, directory fsync) is the single commit point. A crash before it leaves the
/// old marker naming the old, intact files (the new ones are leftovers `open` removes); a crash after it leaves the
/// new marker naming complete, fsynced files (the old ones are leftovers). Changes queued but not yet written are
/// part of the frozen state, so the snapshot saves them, and they are acknowledged once the marker is switched.
extension StoreDataDirectory {
    /// Whether the log has outgrown both the minimum and the snapshot ratio.
    func isCompactionDue(_ d: Disk) -> Bool {
        d.logLength > max(compaction.minimumLogBytes, compaction.snapshotRatio * d.snapshotLength, d.compactAt)
    }

    /// Compacts now, on the writer queue; answers whether it committed. A failure before the commit fails the changes
    /// it had taken (they are undone like any failed write) and is retried only after the log grows again.
    @discardableResult
    func compactNow() -> Bool {
        guard let owner = owner.withLock({ $0.value }) else { return false }
        let (live, taken) = owner.withStateFrozen {
            queue.withLock { q -> Int in
                q.pending = []
                return q.queued
            }
        }
        let outcome = disk.withLock { d in Result { () throws(DurableFile.Failure) in try writeGeneration(live, disk: &d) } }
        switch outcome {
        case .success(let oldFiles):
            settle(through: taken, failure: nil)
            removeOldFiles(oldFiles)
            return true
        case .failure(let failure):
            disk.withLock { d in d.compactAt = d.logLength + max(compaction.minimumLogBytes, 1 << 16) }
            recover(from: failure)
            return false
        }
    }

    /// Writes the next generation and switches the marker to it; answers the files the old generation leaves behind.
    private func writeGeneration(_ live: [StoreChange], disk d: inout Disk) throws(DurableFile.Failure) -> [String] {
        let next = Layout(generation: d.layout.generation + 1, checksums: true, logStem: logStem)
        var files = PhotoFileIndex()
        var records: [UInt8] = []
        var count = 0
        for change in live {
            var file: String?
            if case .photo(let collection, let id, let photo, _) = change {
                // A photo on disk is named, not copied; a fixture's photo, or an upload still queued, is written now.
                if let existing = d.photoFiles[collection, id], DurableFile.kind(of: photosURL.appendingPathComponent(existing).path) == S_IFREG {
                    file = existing
                } else {
                    file = try writePhoto(id: id, photo: photo, disk: &d)
                }
            }
            if case .clear = change {} else { count += 1 }
            records += StoreLogReader.line(for: change, photoFile: file)
            files.apply(change, file: file)
        }
        records += StoreLogReader.line(["op": "end", "records": .number(Double(count))], record: nil)
        if !d.uncommittedPhotos.isEmpty { try DurableFile.syncDirectory(photosURL, fs: fs) }
        try fs.reached(.photosWritten)

        guard let snapshotName = next.snapshotName else { preconditionFailure("every generation after 0 has a snapshot") }
        let snapshot = fileURL(snapshotName)
        let temp = DurableFile.temporaryURL(for: snapshot)
        try DurableFile.writeTemporary(records, to: temp, fs: fs)
        try fs.reached(.snapshotWritten)
        try fs.rename(temp.path, to: snapshot.path)
        try DurableFile.syncDirectory(url, fs: fs)
        try fs.reached(.snapshotRenamed)

        let log = fileURL(next.logName)
        try DurableFile.write([], to: log, fs: fs)
        let logFD = posixOpen(log.path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
        guard logFD >= 0 else { throw DurableFile.Failure(path: log.path, call: "open", code: errno) }
        do throws(DurableFile.Failure) {
            try fs.reached(.logCreated)
            try DurableFile.write(next.marker, to: fileURL(Self.markerName), fs: fs)
        } catch {
            posixClose(logFD)
            throw error
        }
        // Committed: from here on the new generation is the store.
        let old = [d.layout.logName] + (d.layout.snapshotName.map { [$0] } ?? [])
        posixClose(d.logFD)
        d.logFD = logFD
        d.layout = next
        d.logLength = 0
        d.snapshotLength = records.count
        d.compactAt = 0
        d.photoFiles = files
        d.uncommittedPhotos = []
        let unreferenced = Set((try? FileManager.default.contentsOfDirectory(atPath: photosURL.path)) ?? []).subtracting(files.referenced)
        return old.map { fileURL($0).path } + unreferenced.map { photosURL.appendingPathComponent($0).path }
    }

    /// Removes the previous generation's files and photos nothing names; a failure here only leaves garbage that the
    /// next start or compaction removes.
    private func removeOldFiles(_ paths: [String]) {
        do throws(DurableFile.Failure) {
            try fs.reached(.markerSwitched)
            for path in paths { try fs.remove(path) }
            try DurableFile.syncDirectory(photosURL, fs: fs)
            try DurableFile.syncDirectory(url, fs: fs)
            try fs.reached(.oldFilesRemoved)
        } catch {
            // Not a lost change: the new generation is committed; the next compaction removes what is left.
        }
    }
}
