/// `type: svg` layers: the file a layer names imported through the decoder's `LayerImporter`, placed in
/// the layer's bounds by its `contentsGravity`, its layers' names checked against the scene's.
import Foundation
import ReelDocument
import ReelGeometry

/// Files imported while a scene is read, and what their imports left out.
final class ImportLog {
    /// Layer name → the file's resolved path.
    var files: [(String, String)] = []
    var notes: [String] = []
    /// Video layers read so far.
    var videos = 0
    /// Terminal layers read so far.
    var terminals = 0
}

extension Reader {
    /// Imports the layer's `file` and adds its root as the first sublayer, fitted into the bounds (the
    /// file's own size when the layer gives none) by `contentsGravity`.
    func importLayers(
        _ m: [String: JSONNode], _ node: JSONNode, _ path: String, into layer: inout Layer, names: inout Set<String>
    ) throws(SceneError) {
        let filePath = join(path, "file")
        guard let fileNode = m["file"] else {
            throw fail(
                node, filePath, "this layer needs the \"file\" it shows", fix: "add \"file\": \"logo.svg\" (or an animation.json)"
            )
        }
        let name = try string(fileNode, filePath)
        guard let importer else {
            throw fail(
                fileNode, filePath, "this reader cannot import files", fix: "load the scene with Reel.load, which imports SVG")
        }
        let resolved = ResolvedFile(name, in: file)
        var choices = ImportChoices()
        if let n = m["animation"] { choices.animation = try string(n, join(path, "animation")) }
        if let n = m["theme"] { choices.theme = try string(n, join(path, "theme")) }
        if let n = m["slots"] {
            guard case .object(let list) = n.value else {
                throw fail(
                    n, join(path, "slots"), "expected slot ids and their values (an object), found \(n.kindName)",
                    fix: "write slots: {accent: \"#ff3366\", title: Hello}")
            }
            for s in list { choices.slots[s.key] = s.value }
        }
        let imported: ImportedLayers
        do {
            imported = try importer.importFile(resolved, layer.name, choices)
        } catch {
            let problem = error.location.map { "\(error.file):\($0.line):\($0.column): \(error.message)" } ?? error.message
            throw fail(
                fileNode, filePath, "\"\(name)\" cannot be imported: \(problem)",
                fix: error.fix ?? "give a valid SVG or Lottie file")
        }
        let size = imported.size
        guard size.width > 0, size.height > 0, size.width.isFinite, size.height.isFinite else {
            throw fail(
                fileNode, filePath, "\"\(name)\" has no size (\(size.width)×\(size.height))",
                fix: "give the file's root a positive width and height, or a viewBox")
        }
        if m["bounds"] == nil { layer.bounds = Rect(origin: .zero, size: size) }
        let root = layer.fitted(imported)
        var clash: String?
        func claim(_ l: Layer) {
            if !names.insert(l.name).inserted, clash == nil { clash = l.name }
            l.sublayers.forEach(claim)
            if let mask = l.mask { claim(mask) }
        }
        claim(root)
        if let clash {
            throw fail(
                fileNode, filePath, "\"\(name)\" makes a layer named \"\(clash)\", and another layer has that name",
                fix: "rename the scene's layer, or this svg layer (its name prefixes every imported one)")
        }
        layer.sublayers.insert(root, at: 0)
        if let length = imported.duration, var timing = layer.timing, timing.duration <= 0 {
            timing.duration = length
            layer.timing = timing
        }
        imports.files.append((layer.name, resolved.path))
        imports.notes += imported.notes.map { "\(name): \($0)" }
    }
}
