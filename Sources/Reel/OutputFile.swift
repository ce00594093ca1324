import Foundation
import Synchronization

/// A file written under a temporary name next to its target and renamed into place only when it is
/// complete, so that a failure, a crash or Ctrl-C never leaves a half-written file at the target.
final class OutputFile: Sendable {
    let target: String
    let temporary: String

    init(target: String) {
        self.target = target
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
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw ReelError.usage("\(target): cannot move the finished file into place: \(reason)", fix: nil)
        }
    }

    func discard() {
        unlink(temporary)
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
            for p in set { unlink(p) }
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
        throw .usage("\(path): is a directory", fix: "name an output file such as \(path)/clip.mp4")
    }
}
