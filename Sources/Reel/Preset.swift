/// Preset files: a description, the format they write and typed output settings, read with located errors.
import Foundation
import ReelDocument
import ReelGIF
import ReelGeometry
import ReelMedia
import ReelScene

/// An output preset: named output settings kept in a YAML file (`presets/NAME.yaml`, or any file
/// given by path). Every key is optional except `description`; options given on the command line win
/// over the preset's.
public struct Preset: Sendable, Equatable {
    public var name: String
    public var description: String
    /// The file extension the preset writes (`mp4`, `gif`, … or `png` for a PNG sequence).
    public var format: String?
    public var settings = OutputSettings()
    /// Where each key was written. Some keys apply to one format only, and which format a preset
    /// meets is known only when the output's name is (`Reel.check`): the error then still points here.
    public var places = Places()

    /// Where a preset's keys were written: not part of its value (two presets with the same settings
    /// are equal wherever they were written, and the text a batch hashes to decide what is up to date
    /// does not change when a comment moves a line).
    public struct Places: Sendable, Equatable, CustomDebugStringConvertible {
        public var file = ""
        var entries: [String: (location: SourceLocation, path: String)] = [:]

        public init() {}

        public static func == (_: Places, _: Places) -> Bool { true }
        public var debugDescription: String { "-" }
    }

    /// An error about `key` at the place it was written (the file alone for a key the preset lacks).
    public func fail(_ key: String, _ message: String, fix: String? = nil) -> SceneError {
        let place = places.entries[key]
        return SceneError(file: places.file, location: place?.location, path: place?.path ?? key, message: message, fix: fix)
    }

    public init(name: String, description: String) {
        self.name = name
        self.description = description
    }

    public static let keys = [
        "description", "format", "codec", "chroma", "bitDepth", "crf", "encoderPreset", "loop", "quality", "lossless",
        "matte", "flatten", "audio", "colors", "dither", "alphaThreshold", "gifLossy", "maxSize", "fps", "scale", "width", "size",
        "theme", "fontSize", "idleTimeLimit",
    ]
    public static let formats = ["mp4", "mov", "webm", "gif", "apng", "webp", "png"]

    /// Reads a preset file (YAML or JSON) with located errors.
    public static func load(contentsOf path: String, name: String? = nil) throws(SceneError) -> Preset {
        let text = try DocumentLimits.readText(path, what: "preset")
        let presetName = name ?? ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return try decode(yaml: text, file: path, name: presetName)
    }

    public static func decode(yaml text: String, file: String, name: String) throws(SceneError) -> Preset {
        try decode(node: YAMLReader.parse(text, file: file), file: file, name: name).preset
    }

    /// A preset's keys read from a node: a preset file (`extraKeys` empty: a description is required), or
    /// settings inline in a larger document, such as a batch manifest's output (`base` is its path
    /// there, and the node's other allowed keys come back in `members`).
    public static func decode(node root: JSONNode, file: String, name: String, base: String = "", extraKeys: [String] = [])
        throws(SceneError) -> (preset: Preset, members: [String: JSONNode])
    {
        let r = DocumentReader(file: file, base: base)
        let inline = !extraKeys.isEmpty
        let m = try r.members(
            root, "", known: inline ? extraKeys + keys.filter { $0 != "description" && $0 != "format" } : keys,
            what: inline ? "an output" : "a preset")
        var description = ""
        if !inline {
            guard let d = m["description"] else {
                throw r.fail(root, "description", "a preset needs a one-line \"description\"")
            }
            description = try r.string(d, "description")
        }
        var p = Preset(name: name, description: description)
        p.places.file = file
        for (key, node) in m { p.places.entries[key] = (node.location, r.join(base, key)) }
        // A name from a list; numbers are names too (`chroma: 420`).
        func listed(_ key: String, _ allowed: [String]) throws(SceneError) -> String? {
            guard let n = m[key] else { return nil }
            let v: String
            if case .number(let x) = n.value, x == x.rounded() {
                v = abs(x) < 1e15 ? String(Int(x)) : "\(x)"
            } else {
                v = try r.string(n, key)
            }
            guard allowed.contains(v) else {
                let suggestion = didYouMean(v, in: allowed)
                throw r.fail(n, key, "\"\(v)\" is not a \(key)", fix: "\(suggestion)one of \(allowed.joined(separator: ", "))")
            }
            return v
        }
        func choice<T: RawRepresentable & CaseIterable>(_ key: String, _: T.Type) throws(SceneError) -> T?
        where T.RawValue == String {
            try listed(key, T.allCases.map(\.rawValue)).flatMap(T.init(rawValue:))
        }
        func integer(_ key: String, _ range: ClosedRange<Int>) throws(SceneError) -> Int? {
            guard let n = m[key] else { return nil }
            let v = try r.number(n, key)
            guard v == v.rounded(), range.contains(Int(exactly: v) ?? Int.min) else {
                throw r.fail(n, key, "\(key) must be a whole number in \(range.lowerBound)…\(range.upperBound), got \(v)")
            }
            return Int(v)
        }
        p.format = try listed("format", formats)
        var o = OutputSettings()
        o.codec = try choice("codec", VideoCodec.self)
        o.chroma = try choice("chroma", ChromaSubsampling.self)
        o.bitDepth = try integer("bitDepth", 8...10)
        if let b = o.bitDepth, b == 9 { throw r.fail(m["bitDepth"]!, "bitDepth", "bitDepth is 8 or 10") }
        o.crf = try integer("crf", 0...63)
        if let n = m["encoderPreset"] {
            if case .number(let x) = n.value {
                o.encoderPreset = x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : "\(x)"
            } else {
                o.encoderPreset = try r.string(n, "encoderPreset")
            }
        }
        if let n = m["loop"] {
            // The count of repeats after the first play, as GIF's own field, in every format: a negative
            // number (GIF's -1 plays once, but APNG and WebP have no such value) is refused for `once`.
            if case .string("once") = n.value {
                o.loop = -1
            } else {
                let v = try r.number(n, "loop")
                guard v == v.rounded(), (0...65_535).contains(Int(exactly: v) ?? -1) else {
                    throw r.fail(
                        n, "loop", "loop counts the plays after the first, a whole number in 0…65535, got \(v)",
                        fix: "0 loops forever, N plays N + 1 times; write loop: once to play once")
                }
                o.loop = Int(v)
            }
        }
        if let n = m["quality"] {
            let q = try r.number(n, "quality")
            guard (0...100).contains(q) else { throw r.fail(n, "quality", "quality lies in 0…100, got \(q)") }
            o.quality = q
        }
        if let n = m["lossless"] { o.lossless = try r.bool(n, "lossless") }
        if let n = m["matte"] { o.matte = try r.color(n, "matte") }
        if let n = m["flatten"] { o.flatten = try r.bool(n, "flatten") }
        if let n = m["audio"] { o.audio = try r.bool(n, "audio") }
        o.colors = try integer("colors", 2...255)
        o.dither = try choice("dither", GIFOptions.Dither.self)
        o.alphaThreshold = try integer("alphaThreshold", 1...255)
        o.gifLossy = try integer("gifLossy", GIFOptions.lossyLevels)
        if let n = m["maxSize"] {
            let text: String
            if case .number(let v) = n.value { text = String(Int(v)) } else { text = try r.string(n, "maxSize") }
            guard let bytes = Reel.byteSize(text), bytes >= 1024 else {
                throw r.fail(n, "maxSize", "maxSize is a size such as 2MB, 150KB or 2MiB (at least 1 KiB), got \(text)")
            }
            o.maxSize = bytes
        }
        if let n = m["fps"] { o.fps = try r.frameRate(n, "fps") }
        if let n = m["scale"] {
            let s = try r.number(n, "scale")
            guard s > 0, s <= 64 else { throw r.fail(n, "scale", "scale lies in (0, 64], got \(s)") }
            o.scale = s
        }
        o.width = try integer("width", 1...Scene.maximumPixelSide)
        if let n = m["size"] {
            let items = try r.array(n, "size")
            guard items.count == 2 else { throw r.fail(n, "size", "size is [width, height] in pixels") }
            var out: [Int] = []
            for (i, item) in items.enumerated() {
                let v = try r.number(item, "size[\(i)]")
                guard v == v.rounded(), v >= 2, v <= Double(Scene.maximumPixelSide) else {
                    throw r.fail(item, "size[\(i)]", "a side is a whole number of pixels in 2…\(Scene.maximumPixelSide)")
                }
                out.append(Int(v))
            }
            o.size = OutputSettings.PixelSize(width: out[0], height: out[1])
        }
        if o.width != nil && o.size != nil { throw r.fail(m["width"]!, "width", "give \"width\" or \"size\", not both") }
        // A terminal recording rendered alone: the command line's --theme, --font-size, --idle-time-limit.
        if let n = m["theme"] {
            let theme = try r.string(n, "theme")
            let names = Reel.terminalThemeNames
            guard names.contains(theme) else {
                throw r.fail(
                    n, "theme", "\"\(theme)\" is not a theme",
                    fix: "\(didYouMean(theme, in: names))one of \(names.joined(separator: ", "))")
            }
            o.theme = theme
        }
        if let n = m["fontSize"] {
            let v = try r.number(n, "fontSize")
            guard v > 0, v <= 1000 else {
                throw r.fail(n, "fontSize", "fontSize is in points, above 0 and at most 1000, got \(v)")
            }
            o.fontSize = v
        }
        if let n = m["idleTimeLimit"] {
            let v = try r.number(n, "idleTimeLimit")
            guard v > 0, v.isFinite else {
                throw r.fail(n, "idleTimeLimit", "idleTimeLimit is a positive number of seconds, got \(v)")
            }
            o.idleTimeLimit = v
        }
        p.settings = o
        return (p, m)
    }
}
