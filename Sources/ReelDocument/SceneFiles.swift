/// The files a scene names (images, fonts, SVG and Lottie imports, video, sound, subtitles, word
/// timings), found by one rule: the name resolved against the scene file's folder, confined to that
/// folder by `--sandbox`, and a regular file that can be read, each way that fails worded once.
import Foundation

/// A name as the scene wrote it and the path it means (`InputFiles.resolve`): the name for messages and
/// for the sandbox's rule on absolute names, the path for opening.
public struct ResolvedFile: Sendable, Equatable {
    public let name: String
    public let path: String

    public init(name: String, path: String) {
        self.name = name
        self.path = path
    }

    /// `name` as the document at `document` (a scene file) means it.
    public init(_ name: String, in document: String) {
        self.init(name: name, path: InputFiles.resolve(name, relativeTo: document))
    }
}

/// The rule every file a scene names goes through: where its folder is and whether the render is
/// confined to it.
public struct SceneFiles: Sendable {
    /// The scene file, whose folder relative names are read from.
    public let document: String
    public let sandboxed: Bool
    /// The absolute folder of `document`.
    public let folder: String

    public init(document: String, sandboxed: Bool) {
        self.document = document
        self.sandboxed = sandboxed
        folder = InputFiles.folder(of: document)
    }

    /// Why a file the scene names cannot be read: the words that follow its name, and how to fix it.
    public struct Refusal: Error, Sendable, Equatable {
        public let message: String
        public let fix: String
    }

    public func resolve(_ name: String) -> ResolvedFile { ResolvedFile(name, in: document) }

    /// Refuses `file` unless it may be read: inside the scene's folder when sandboxed (decided on the
    /// name as written, before anything is looked up, so a refusal never tells whether an outside file
    /// exists; an absolute name is refused even when it points inside), and a regular file there that
    /// can be read (a pipe or a device would make a reader wait forever). `what` names the kind of file
    /// in the fix ("image", "font", "video").
    public func check(_ file: ResolvedFile, what: String) throws(Refusal) {
        if sandboxed && (file.name.hasPrefix("/") || !Sandbox.contains(folder, file.path)) {
            throw Refusal(
                message: "is outside the scene's folder, and a sandboxed render reads only inside it",
                fix: "put the \(what) in the scene's folder and name it relative to the scene")
        }
        guard let (message, fix) = InputFiles.problem(at: file.path) else { return }
        guard message.hasPrefix("no such file") else { throw Refusal(message: message, fix: fix) }
        throw Refusal(message: "\(message) (looked for \(file.path))", fix: "paths are relative to the scene file")
    }

    /// `check` as a `DocumentError` about the file, for the importers the scene decoder calls (which
    /// place it at the key that named the file).
    public func checked(_ file: ResolvedFile, what: String) throws(DocumentError) {
        do {
            try check(file, what: what)
        } catch {
            throw DocumentError(file: file.path, message: error.message, fix: error.fix)
        }
    }
}
