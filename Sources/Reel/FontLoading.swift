/// The fonts a scene's text layers name, opened before any frame is drawn: installed ones by name, files
/// relative to the scene (confined with `--sandbox`); a font that is missing is an error at the place
/// the scene names it, with the nearest installed names, never a silent substitute.
import Foundation
import ReelDocument
import ReelGeometry
import ReelRender
import ReelScene
import ReelText

extension Reel {
    /// Whether a font name is a file: it ends in a font file's extension or names a folder.
    static func isFontFile(_ name: String) -> Bool {
        let lower = name.lowercased()
        return name.contains("/") || [".ttf", ".otf", ".ttc", ".otc"].contains { lower.hasSuffix($0) }
    }

    /// Opens every font the scene's text layers use; `file` is the scene file, for messages and paths.
    /// `also` are fonts named elsewhere (text in SVG files shown as contents).
    static func loadFonts(for scene: Scene, file: String, sandboxed: Bool, also: [String] = []) throws(ReelError)
        -> TextResources
    {
        let names = scene.fontNames + also.filter { !scene.fontNames.contains($0) }
        guard !names.isEmpty else { return TextResources() }
        let library = FontLibrary.shared
        let files = SceneFiles(document: file, sandboxed: sandboxed)
        var fonts: [String: FontFace] = [:]
        for name in names {
            let place = scene.fontReferences[name]
            func failure(_ message: String, fix: String?) -> ReelError {
                .scene(SceneError(file: file, location: place?.location, path: place?.path, message: message, fix: fix))
            }
            if isFontFile(name) {
                let resolved = files.resolve(name)
                let path = resolved.path
                do throws(SceneFiles.Refusal) {
                    try files.check(resolved, what: "font")
                } catch {
                    throw failure("\"\(name)\": \(error.message)", fix: error.fix)
                }
                do {
                    fonts[name] = try library.face(path: path)
                } catch {
                    throw failure("\"\(name)\" cannot be read as a font: \(error.message)", fix: "give a .ttf, .otf or .ttc file")
                }
                continue
            }
            if name.contains(",") {
                // A list, as CSS writes font-family (an SVG's text): the first installed one, else any
                // installed font. It is a preference, never an error.
                let candidates = name.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                var found: FontFace?
                for candidate in candidates where found == nil {
                    if case .found(let face) = library.installed(candidate) { found = face }
                }
                if found == nil, let any = library.catalog.fonts.first {
                    found = try? library.face(path: any.path, index: any.index)
                }
                if let found {
                    fonts[name] = found
                    continue
                }
            }
            switch library.installed(name) {
            case .found(let face):
                fonts[name] = face
            case .notInstalled(let suggestions):
                let hint = suggestions.first.map { "did you mean \"\($0)\"? " } ?? ""
                throw failure(
                    "no font \"\(name)\"",
                    fix:
                        "\(hint)`reel fonts` lists the installed fonts; a font file can be named by its path relative to the scene"
                )
            case .unreadable(let error):
                throw failure("the font \"\(name)\" cannot be read: \(error.message)", fix: "reinstall it, or name another font")
            }
        }
        return TextResources(fonts: fonts, typesetter: library.typesetter())
    }

    /// What the model of each text layer notes once: characters drawn from a fallback font (naming it),
    /// and text that overflows its bounds (drawn anyway, as Core Animation does; text set along a path
    /// is measured along it, not in its bounds).
    static func textNotes(for scene: Scene, text: TextResources) -> [Message] {
        var notes: [Message] = []
        scene.layers.forEachLayer { layer, _ in
            guard layer.type == .text, let (set, _) = text.typeset(layer.text, in: layer.bounds) else { return }
            for path in set.fallbackFonts {
                notes.append("text layer \"\(layer.name)\": characters its font lacks are drawn from \(path)")
            }
            if set.overflows && layer.shape.path.isEmpty {
                notes.append(
                    "text layer \"\(layer.name)\": the text overflows its bounds (drawn anyway; isWrapped or truncationMode fit it)"
                )
            }
        }
        return notes
    }
}
