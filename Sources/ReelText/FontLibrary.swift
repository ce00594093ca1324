/// Fonts opened once per process: a scene's font names resolved against the installed fonts (or read
/// from a file), and the fallback fonts layout asks for, each face shared by every layer and thread.
import Synchronization

/// How a font name resolved.
public enum FontResolution: Sendable {
    case found(FontFace)
    /// Nothing installed has that name; the nearest names, best first.
    case notInstalled(suggestions: [String])
    /// The file named cannot be read as a font.
    case unreadable(TextError)
}

public final class FontLibrary: Sendable {
    public static let shared = FontLibrary(catalog: .installed)

    public let catalog: FontCatalog
    private let faces = Mutex<[String: FontFace]>([:])

    public init(catalog: FontCatalog) {
        self.catalog = catalog
    }

    /// Face `index` of a font file, opened on first use.
    public func face(path: String, index: Int = 0) throws(TextError) -> FontFace {
        let key = "\(path)#\(index)"
        if let face = faces.withLock({ $0[key] }) { return face }
        let face = try FontFace(path: path, index: index)
        // Two threads may open it at once: the first one stored is the one everybody gets.
        return faces.withLock { faces in
            if let first = faces[key] { return first }
            faces[key] = face
            return face
        }
    }

    /// An installed font by PostScript name or family and style (see `FontCatalog.font(named:)`).
    public func installed(_ name: String) -> FontResolution {
        guard let description = catalog.font(named: name) else {
            return .notInstalled(suggestions: catalog.suggestions(for: name))
        }
        do {
            return .found(try face(path: description.path, index: description.index))
        } catch {
            return .unreadable(error)
        }
    }

    /// The fallback for layout: fontconfig's choice for a character `face` lacks, opened.
    public var fallback: Typesetter.Fallback { { [self] scalar, face in fallbackFace(scalar, after: face, colour: false) } }

    /// The colour font for a character shown as emoji: fontconfig's choice asked for colour first.
    public var emoji: Typesetter.EmojiFont {
        { [self] scalar, face in
            guard let found = fallbackFace(scalar, after: face, colour: true), found.hasColorBitmaps else { return nil }
            return found
        }
    }

    /// A typesetter that falls back, and draws emoji, from the installed fonts.
    public func typesetter() -> Typesetter { Typesetter(fallback: fallback, emoji: emoji) }

    private func fallbackFace(_ scalar: Unicode.Scalar, after face: FontFace, colour: Bool) -> FontFace? {
        let description =
            catalog.fonts.first { $0.path == face.path }
            ?? FontDescription(family: "", style: "", fullName: "", postScriptName: "", path: face.path)
        guard let other = catalog.fallback(for: scalar, after: description, colour: colour) else { return nil }
        return try? self.face(path: other.path, index: other.index)
    }
}
