/// The scene object itself: canvas, frame rate, duration, and the order in which its parts are read.
import Foundation
import ReelAnimation
import ReelDocument
import ReelGeometry

extension Reader {
    mutating func scene(_ root: JSONNode) throws(SceneError) -> Scene {
        let m = try members(
            root, "", known: Self.sceneKeys, what: "a scene")
        func required(_ key: String, _ example: String) throws(SceneError) -> JSONNode {
            guard let n = m[key] else {
                throw SceneError(
                    file: file, location: root.location, path: key, message: "missing required key \"\(key)\"",
                    fix: "add \"\(key)\": \(example)")
            }
            return n
        }
        let widthNode = try required("width", "320")
        let heightNode = try required("height", "180")
        let fpsNode = try required("fps", "30")
        let durationNode = try required("duration", "2")
        let fps = try frameRate(fpsNode, "fps")
        var scene = Scene(
            width: try number(widthNode, "width"), height: try number(heightNode, "height"),
            fps: fps, duration: try number(durationNode, "duration"))
        if let n = m["scale"] { scene.scale = try number(n, "scale") }
        if let n = m["background"] { scene.background = try color(n, "background") }
        if let n = m["motionBlur"] { scene.motionBlur = try motionBlur(n, "motionBlur") }
        if let (key, message, fix) = scene.validationProblem() {
            let node = m[key] ?? root
            throw fail(node, key, message, fix: fix)
        }
        if let n = m["layers"] {
            var names = Set<String>()
            let items = try array(n, "layers")
            // Made at its size: grown append by append, a hundred thousand layers (1.5 KB each) passed
            // through copies of up to twice the final array.
            scene.layers.reserveCapacity(items.count)
            for (i, layerNode) in items.enumerated() {
                let layer = try self.layer(layerNode, "layers[\(i)]", names: &names)
                try refuseCells(layer, layerNode, "layers[\(i)]", under: "a top-level layer has none above it")
                scene.layers.append(layer)
            }
        }
        if let n = m["captions"] { scene.captions = try captions(n, "captions") }
        for (name, reference) in contentsReferences.items { scene.contentsReferences[name] = reference }
        scene.importNotes += imports.notes
        // The first place a font is written; the default font (written nowhere) only when it is nowhere.
        for (font, reference) in fontReferences.items
        where scene.fontReferences[font] == nil || (scene.fontReferences[font]?.location == nil && reference.location != nil) {
            scene.fontReferences[font] = reference
        }
        // Named sets of animations, defined once and played by timeline actions (`play`).
        var library: [String: (node: JSONNode, path: String)] = [:]
        if let n = m["animations"] {
            guard case .object(let pairs) = n.value else {
                throw fail(n, "animations", "expected names and their animation lists (an object)")
            }
            for pair in pairs {
                _ = try array(pair.value, join("animations", pair.key))
                library[pair.key] = (pair.value, join("animations", pair.key))
            }
        }
        if let n = m["timeline"] { try timeline(n, "timeline", library: library, into: &scene) }
        if let n = m["audio"] { scene.audio = try audioClips(n, "audio") }
        // Last, once every key that names a file has been read: what a render must not write over.
        for (name, file) in imports.files { scene.importedFiles[name] = file }
        if let (name, count) = scene.replicationBeyond(Scene.maximumDrawnLayers) {
            let layerNode = layerNodes.items.first { $0.0 == name }?.1
            throw SceneError(
                file: file, location: layerNode?.location, path: layerNode?.path ?? "layers",
                message:
                    "replicator \"\(name)\" draws up to \(count < 1e15 ? String(Int(count)) : "\(count)") layers a frame (instances of instances), above the limit of \(Scene.maximumDrawnLayers)",
                fix: "lower instanceCount, or nest fewer replicators")
        }
        // Last: the timeline's animations are read after the layers'.
        scene.importNotes += notes.items
        return scene
    }

    static let sceneKeys = [
        "width", "height", "scale", "fps", "duration", "background", "motionBlur", "variables", "layers", "animations",
        "timeline", "audio", "captions",
    ]
    static let motionBlurKeys = ["shutterAngle", "samples"]

}

extension Reader {
    /// `motionBlur: {shutterAngle: 180, samples: 8}` (either may be left out: those are the defaults).
    func motionBlur(_ node: JSONNode, _ path: String) throws(SceneError) -> MotionBlur {
        let m = try members(node, path, known: Self.motionBlurKeys, what: "motion blur")
        var blur = MotionBlur()
        if let n = m["shutterAngle"] {
            let v = try number(n, join(path, "shutterAngle"))
            guard MotionBlur.angles.contains(v) else {
                throw fail(
                    n, join(path, "shutterAngle"), "a shutter angle is 0…720 degrees, got \(v)",
                    fix: "180 blurs half of a frame's motion, as film does; 0 turns motion blur off")
            }
            blur.shutterAngle = v
        }
        if let n = m["samples"] {
            let v = try number(n, join(path, "samples"))
            guard v == v.rounded(), MotionBlur.sampleCounts.contains(Int(exactly: v) ?? 0) else {
                throw fail(
                    n, join(path, "samples"),
                    "samples is a whole number in \(MotionBlur.sampleCounts.lowerBound)…\(MotionBlur.sampleCounts.upperBound), got \(v)",
                    fix: "8 is smooth for most motion; fast, long moves want 16–32")
            }
            blur.samples = Int(v)
        }
        return blur
    }
}

extension LocatedReader {
    /// A frame rate as scenes, presets and manifests write it: 30, 29.97 or "30000/1001".
    package func frameRate(_ node: JSONNode, _ path: String) throws(SceneError) -> FrameRate {
        let fix = "write fps as a number such as 30 or 29.97, or as a fraction string such as \"30000/1001\""
        switch node.value {
        case .number(let v):
            guard v > 0, let r = FrameRate(value: v) else { throw fail(node, path, "fps must be positive, got \(v)", fix: fix) }
            return r
        case .string(let s):
            guard let r = FrameRate(parsing: s) else {
                throw fail(
                    node, path,
                    "\"\(s)\" is not a frame rate Reel can write: positive, with a numerator up to 10^9 and a denominator up to 10^6 once reduced",
                    fix: fix)
            }
            return r
        default:
            throw fail(node, path, "expected a frame rate, found \(node.kindName)", fix: fix)
        }
    }
}
