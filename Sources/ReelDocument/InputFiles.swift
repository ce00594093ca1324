/// Files a document names as inputs (a scene's images, fonts, SVG and Lottie files, sound, video,
/// subtitles; a manifest's scenes and tables): where a name points, and whether what is there is a file
/// that can be read whole without waiting on anyone.
import Foundation

public enum InputFiles {
    /// `name` as a scene (or manifest) file at `document` means it: an absolute path as it is, a relative
    /// one from the document's folder; `..` and `.` folded on the text, as a person reading the file
    /// would, and the result absolute whatever the working directory (`reel render sub/scene.yaml` and
    /// the same file by its full path resolve `../logo.svg` alike).
    public static func resolve(_ name: String, relativeTo document: String) -> String {
        guard !name.hasPrefix("/") else { return folded(name) }
        return folded(folder(of: document) + "/" + name)
    }

    /// The absolute folder a document's relative names are read from.
    public static func folder(of document: String) -> String {
        let absolute = document.hasPrefix("/") ? document : FileManager.default.currentDirectoryPath + "/" + document
        let path = folded(absolute)
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// An absolute path with empty, `.` and `..` components folded (`..` at the root stays at the root).
    static func folded(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Why `path` cannot be read as an input file, or nil when it can: it must exist and be a regular
    /// file (links followed). A named pipe, a socket or a device is refused before it is opened — reading
    /// one could wait forever for a writer, or never end — and a folder is named as one.
    public static func problem(at path: String) -> (message: String, fix: String)? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            switch errno {
            case EACCES: return ("cannot be read: permission denied", "let the user running Reel read it")
            case ENOTDIR: return ("no such file (a part of its path is not a folder)", "check the path")
            case ELOOP: return ("cannot be read: its links go round in a loop", "check the path")
            default: return ("no such file", "check the path")
            }
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            guard access(path, R_OK) == 0 else {
                return ("cannot be read: permission denied", "let the user running Reel read it")
            }
            return nil
        case S_IFDIR: return ("is a folder, not a file", "name a file inside it")
        case S_IFIFO:
            return (
                "is a named pipe (FIFO), not a file: Reel reads its inputs whole",
                "save what the pipe carries to a file and name that"
            )
        case S_IFSOCK: return ("is a socket, not a file", "name a regular file")
        case S_IFCHR, S_IFBLK: return ("is a device, not a file", "name a regular file")
        default: return ("is not a regular file", "name a regular file")
        }
    }

    /// Throws the problem `problem(at:)` finds, naming the file; `fix` replaces the generic advice for a
    /// missing file (e.g. "paths are relative to the scene file").
    public static func check(_ path: String, missingFix: String? = nil) throws(DocumentError) {
        guard let (message, fix) = problem(at: path) else { return }
        throw DocumentError(file: path, message: message, fix: message.hasPrefix("no such file") ? missingFix ?? fix : fix)
    }

    /// The first `count` bytes of an input file (fewer when it is shorter), or nil when it is not a
    /// regular file that can be read: enough to tell what a file is by its content, without waiting on a
    /// pipe someone named as a scene.
    public static func prefix(of path: String, count: Int) -> [UInt8]? {
        guard problem(at: path) == nil else { return nil }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return [UInt8]((try? handle.read(upToCount: count)) ?? Data())
    }

    /// The bytes of an input file of at most `maximumBytes`; `what` names it with its article ("a scene",
    /// "an SVG file") in the messages.
    /// Opened without blocking and judged on the open file itself, so a file swapped for a pipe after the
    /// check still cannot make the read wait; read at most one byte past the limit, so a file that grows
    /// while it is read is refused rather than taken whole.
    public static func read(_ path: String, maximumBytes: Int, what: String) throws(DocumentError) -> [UInt8] {
        try check(path)
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw DocumentError(file: path, message: "cannot be read: \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw DocumentError(file: path, message: "is not a regular file", fix: "name a regular file")
        }
        let size = Int(info.st_size)
        guard size <= maximumBytes else {
            throw DocumentError(
                file: path, message: "is \(size >> 20) MiB, above the limit of \(maximumBytes >> 20) MiB for \(what)")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        do {
            // One byte past the size stated: a file that grows while it is read is refused, not cut.
            while bytes.count <= size, let chunk = try handle.read(upToCount: size + 1 - bytes.count), !chunk.isEmpty {
                bytes += chunk
            }
        } catch {
            throw DocumentError(file: path, message: "cannot be read: \(error.localizedDescription)")
        }
        guard bytes.count <= size else {
            throw DocumentError(file: path, message: "changed while it was read", fix: "render when nothing is writing it")
        }
        return bytes
    }
}
