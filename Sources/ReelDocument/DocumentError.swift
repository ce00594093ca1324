/// A problem with a document (a scene, a preset, a manifest), located in its file: line and column, and
/// the key path inside the document.
public struct DocumentError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var location: SourceLocation?
    /// JSON path of the offending value, e.g. `layers[0].animations[1].duration`.
    public var path: String?
    public var message: String
    /// How to fix it, when there is something useful to say.
    public var fix: String?

    public init(file: String, location: SourceLocation? = nil, path: String? = nil, message: String, fix: String? = nil) {
        self.file = file
        self.location = location
        self.path = path
        self.message = message
        self.fix = fix
    }

    public var description: String {
        var s = file
        if let location { s += ":\(location.line):\(location.column)" }
        s += ": "
        if let path, !path.isEmpty { s += "\(path): " }
        s += message
        if let fix { s += "\n  fix: \(fix)" }
        return s
    }
}
