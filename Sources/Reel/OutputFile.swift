/// Outputs written under a temporary name and renamed into place when complete, and the checks, before
/// any work, that a destination can be written.
import Foundation
import ReelMedia
import Synchronization

/// A file written under a temporary name next to its target and renamed into place only when it is
/// complete, so that a failure, a crash or Ctrl-C never leaves a half-written file at the target.
/// A folder output (a PNG sequence) works the same way: written as a hidden folder, swapped into place.
final class OutputFile: Sendable {
    let target: String
    let temporary: String
    let isDirectory: Bool

    init(target path: String, isDirectory: Bool = false) {
        let target = isDirectory && path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        self.target = target
        self.isDirectory = isDirectory
        let url = URL(fileURLWithPath: target)
        let dir = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        let unique = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        temporary = (dir as NSString).appendingPathComponent(".\(name).\(unique).reel-tmp")
        TemporaryFiles.shared.register(temporary)
    }

    /// Moves the finished file into place (atomic within one file system).
    func commit() throws {
        defer { TemporaryFiles.shared.unregister(temporary) }
        if isDirectory {
            // An earlier sequence at the target is moved aside, replaced, then removed. Another render
            // to the same folder may do the same at the same moment, so the moves are retried until this
            // one's frames are in place: the last to finish wins, and each sequence is whole.
            var asides: [String] = []
            defer { for a in asides { try? FileManager.default.removeItem(atPath: a) } }
            for attempt in 0..<64 {
                if rename(temporary, target) == 0 { return }
                let failure = errno
                guard failure == ENOTEMPTY || failure == EEXIST else {
                    let reason = String(cString: strerror(failure))
                    try? FileManager.default.removeItem(atPath: temporary)
                    throw ReelError.usage("\(target): cannot move the finished frames into place: \(reason)", fix: nil)
                }
                let aside = temporary + ".old\(attempt)"
                if rename(target, aside) == 0 {
                    asides.append(aside)
                } else if errno != ENOENT {
                    let reason = String(cString: strerror(errno))
                    try? FileManager.default.removeItem(atPath: temporary)
                    throw ReelError.usage("\(target): cannot replace the earlier frames: \(reason)", fix: nil)
                }
            }
            try? FileManager.default.removeItem(atPath: temporary)
            throw ReelError.usage("\(target): other renders kept replacing the frames", fix: "render to one folder at a time")
        }
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw ReelError.usage("\(target): cannot move the finished file into place: \(reason)", fix: nil)
        }
    }

    /// Runs `body` (which writes the temporary), then moves the result into place; on any error or
    /// interrupt the temporary is removed and the error is reported against `output`.
    func complete<T>(output: String, cancellation: Cancellation, _ body: () throws -> T) throws(ReelError) -> T {
        do {
            let result = try body()
            try cancellation.check()
            try commit()
            return result
        } catch let error as ReelError {
            discard()
            throw error
        } catch let error as MediaError {
            discard()
            throw .media(error, output: output)
        } catch {
            discard()
            throw .usage("\(output): \(error)", fix: nil)
        }
    }

    func discard() {
        if isDirectory { try? FileManager.default.removeItem(atPath: temporary) } else { unlink(temporary) }
        TemporaryFiles.shared.unregister(temporary)
    }
}

/// Every temporary output in flight, so that a signal handler can remove them.
final class TemporaryFiles: Sendable {
    static let shared = TemporaryFiles()
    private let paths = Mutex<Set<String>>([])

    func register(_ path: String) { paths.withLock { _ = $0.insert(path) } }
    func unregister(_ path: String) { paths.withLock { _ = $0.remove(path) } }

    /// Removes them all and keeps the lock, so no new one can appear while the process exits.
    func removeAllForExit() {
        paths.withLock { set in
            for p in set where unlink(p) != 0 { try? FileManager.default.removeItem(atPath: p) }
            set.removeAll()
        }
    }
}

/// Checks, before any work, that a file can be created at `path`.
func checkWritableDestination(_ path: String) throws(ReelError) {
    let url = URL(fileURLWithPath: path)
    let dir = url.deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory) else {
        throw .usage("\(path): the output directory \(dir) does not exist", fix: "create it first (mkdir -p \(dir))")
    }
    guard isDirectory.boolValue else {
        throw .usage("\(path): \(dir) is not a directory", fix: nil)
    }
    guard access(dir, W_OK) == 0 else {
        throw .usage(
            "\(path): the output directory \(dir) is not writable", fix: "choose another directory or change its permissions")
    }
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
        throw .usage(
            "\(path): is a directory",
            fix: "name an output file such as \(path)/clip.mp4, or end the name with / for a PNG sequence")
    }
}

/// Checks, before any work, that a PNG sequence can be written to the folder `path`: its parent is
/// writable, and an existing folder there holds nothing but an earlier sequence (which is replaced).
func checkSequenceDestination(_ path: String) throws(ReelError) {
    let folder = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    try checkWritableDestination(folder + ".reel-probe")  // the parent folder exists and is writable
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
        guard isDirectory.boolValue else {
            throw .usage("\(folder): exists and is not a folder", fix: "choose a folder name for the PNG sequence")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        if let other = names.first(where: { !($0.hasPrefix("frame_") && $0.hasSuffix(".png")) }) {
            throw .usage(
                "\(folder): holds \(other), not only an earlier PNG sequence", fix: "choose an empty or new folder for the frames"
            )
        }
    }
}
