/// Scene files in: the public entry points that read a JSON or YAML scene into a `Scene`.
import Foundation
import ReelAnimation
import ReelDocument
import ReelGeometry

/// Reads a scene file into a `Scene`, reporting the first problem with its line, column and key path.
public enum SceneDecoder {
    /// `variables` are values for the variables the scene declares (see `SceneVariables`); `importer`
    /// reads the files `type: svg` layers name.
    public static func load(contentsOf path: String, variables: [String: JSONNode] = [:], importer: LayerImporter? = nil)
        throws(SceneError) -> Scene
    {
        if let (message, fix) = InputFiles.problem(at: path) {
            throw SceneError(
                file: path, message: message,
                fix: message.hasPrefix("no such file")
                    ? "check the path; scenes are JSON or YAML files such as examples/hello.json" : fix)
        }
        let data: Data
        do {
            data = Data(try InputFiles.read(path, maximumBytes: DocumentLimits.maximumBytes, what: "a scene"))
        } catch {
            throw SceneError(file: path, message: error.message, fix: error.fix ?? "split it, or generate the scene in Swift")
        }
        let ext = (path as NSString).pathExtension.lowercased()
        if ext == "yaml" || ext == "yml" {
            guard let text = String(data: data, encoding: .utf8) else {
                throw SceneError(
                    file: path, location: DocumentLimits.firstInvalidUTF8([UInt8](data)),
                    message: "invalid YAML: this byte is not UTF-8 text", fix: "save the file as UTF-8")
            }
            return try decode(yaml: text, file: path, variables: variables, importer: importer)
        }
        return try decode([UInt8](data), file: path, variables: variables, importer: importer)
    }

    /// A scene written in YAML: the same keys, values and errors as JSON.
    public static func decode(
        yaml text: String, file: String, variables: [String: JSONNode] = [:], importer: LayerImporter? = nil
    )
        throws(SceneError)
        -> Scene
    {
        let root = try SceneVariables.resolve(YAMLReader.parse(text, file: file), file: file, values: variables)
        var reader = Reader(file: file)
        reader.importer = importer
        return try reader.scene(root)
    }

    public static func decode(_ bytes: [UInt8], file: String, variables: [String: JSONNode] = [:], importer: LayerImporter? = nil)
        throws(SceneError)
        -> Scene
    {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw SceneError(file: file, location: error.location, message: "invalid JSON: \(error.message)")
        }
        return try decode(root: root, file: file, variables: variables, importer: importer)
    }

    /// A scene from its JSON already parsed (a file read once to tell a scene from another format).
    public static func decode(
        root parsed: JSONNode, file: String, variables: [String: JSONNode] = [:], importer: LayerImporter? = nil
    ) throws(SceneError) -> Scene {
        let root = try SceneVariables.resolve(parsed, file: file, values: variables)
        var reader = Reader(file: file)
        reader.importer = importer
        return try reader.scene(root)
    }
}

extension SceneDecoder {
    /// The values of a layer's `type`: the layer classes, and `svg` and `lottie` (a plain layer holding
    /// the layers imported from an SVG or Lottie file).
    public static var layerTypes: [String] { LayerType.allCases.map(\.rawValue) + ["svg", "lottie"] }

    /// Every key the decoder accepts, by the kind of object that holds it (the JSON Schema in
    /// `schema/scene.schema.json` is checked against this).
    public static var knownKeys: [String: [String]] {
        [
            "scene": Reader.sceneKeys, "action": Reader.actionKeys, "layer": Reader.commonLayerKeys,
            "shapeLayer": Reader.shapeLayerKeys, "gradientLayer": Reader.gradientLayerKeys,
            "replicatorLayer": Reader.replicatorLayerKeys, "textLayer": Reader.textLayerKeys, "svgLayer": Reader.svgLayerKeys,
            "videoLayer": Reader.videoLayerKeys, "terminalLayer": Reader.terminalLayerKeys,
            "terminalTheme": Reader.terminalThemeKeys, "audio": Reader.audioKeys,
            "captions": Reader.captionKeys,
            "cue": Reader.cueKeys, "textRun": Reader.runKeys,
            "unitAnimation": Reader.unitAnimationKeys, "animationTiming": Reader.timingKeys, "basic": Reader.basicKeys,
            "keyframe": Reader.keyframeKeys, "spring": Reader.springKeys, "popSpring": Reader.popSpringKeys,
            "group": Reader.groupKeys, "transform": Reader.transformOps, "motionBlur": Reader.motionBlurKeys,
        ]
    }
}

/// Scene files' errors are documents' errors (ReelDocument): located, with a fix.
public typealias SceneError = DocumentError
