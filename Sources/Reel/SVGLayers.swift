/// The importer Reel gives the scene decoder for `type: svg` layers: the file confined by `--sandbox`,
/// read by ReelSVG, its root named `layer/svg` so that each element id becomes `layer/id`.
import Foundation
import ReelDocument
import ReelGeometry
import ReelSVG
import ReelScene

extension Reel {
    /// Imports SVG files for a scene in `folder`; with `sandboxed`, only files inside it.
    static func svgImporter(folder: String, sandboxed: Bool) -> LayerImporter {
        LayerImporter { (path: String, name: String) throws(DocumentError) -> ImportedLayers in
            guard !sandboxed || Sandbox.contains(folder, path) else {
                throw DocumentError(
                    file: path, message: "is outside the scene's folder, and a sandboxed render reads only inside it",
                    fix: "put the SVG in the scene's folder and name it relative to the scene")
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw DocumentError(file: path, message: "no such file", fix: "paths are relative to the scene file")
            }
            let svg = try SVGImport.load(contentsOf: path, name: name, rootName: "\(name)/svg")
            return ImportedLayers(layer: svg.layer, size: Size(width: svg.width, height: svg.height), notes: svg.warnings)
        }
    }
}
