// `reel info` and `reel timeline`: a scene validated and summarised, and its values sampled over time.
import ArgumentParser
import Foundation
import Reel
import ReelAnimation
import ReelDocument
import ReelGeometry
import ReelLottie
import ReelMedia
import ReelScene

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate a scene and summarise it: canvas, timing, layers and their animations.")

    @Argument(
        help: ArgumentHelp(
            "The scene file (JSON or YAML), or an SVG, Lottie or terminal recording (.cast) alone.", valueName: "scene"))
    var scene: String

    @OptionGroup(title: "Lottie archives")
    var lottieChoice: LottieChoice

    /// A terminal layer's recording: its size, lengths, events and markers.
    func printRecording(_ t: TerminalProperties, in clip: Clip, indent: String) {
        guard let r = Reel.recordingSummary(of: t, in: clip) else { return }
        let cut =
            r.playedLength < r.recordedLength
            ? " (\(fmt(r.recordedLength)) s recorded, pauses cut to \(fmt(r.idleTimeLimit ?? 0)) s)" : ""
        print("\(indent)recording \(t.name): \(r.columns)×\(r.rows) cells, \(fmt(r.playedLength)) s\(cut)")
        print(
            "\(indent)  events: \(r.outputEvents) output, \(r.resizes) resize, \(r.inputEvents) input, \(r.markers.count) marker")
        for m in r.markers { print("\(indent)  marker at \(fmt(m.time)) s: \(m.label)") }
        print(
            "\(indent)  drawn as \(t.columns)×\(t.rows) cells of \(t.fontFamily) \(fmt(t.fontSize)) pt, cursor \(t.cursor.rawValue)"
        )
    }

    func run() throws {
        var overrides = SceneOverrides()
        overrides.animation = lottieChoice.animation
        overrides.lottieTheme = lottieChoice.lottieTheme
        let clip = try Reel.load(scene, overrides: overrides)
        let s = clip.scene
        print("\(scene): valid")
        if let archive = Reel.dotLottie(scene, animation: lottieChoice.animation, theme: lottieChoice.lottieTheme) {
            print(
                "dotLottie: \(archive.animationIDs.count) animation(s): \(archive.animationIDs.joined(separator: ", ")); shown: \(archive.animationID ?? "")"
            )
            if !archive.themeIDs.isEmpty {
                print("  themes: \(archive.themeIDs.joined(separator: ", ")); applied: \(archive.themeID ?? "none")")
            }
        }
        print("canvas: \(fmt(s.width))×\(fmt(s.height)) pt at @\(fmt(s.scale)) = \(s.pixelWidth)×\(s.pixelHeight) px")
        print("timing: \(s.fps) fps, \(fmt(s.duration)) s, \(s.frameCount) frames")
        print("background: \(colour(s.background))")
        if let census = Reel.lottieCensus(scene, animation: lottieChoice.animation) { printCensus(census) }
        let slots = Reel.lottieSlots(scene, animation: lottieChoice.animation)
        if !slots.isEmpty {
            // As --var takes them: each slot with its kind and the file's value.
            print("slots: " + slots.map { "\($0.id) (\($0.kind.rawValue), \(Self.shown($0.value)))" }.joined(separator: ", "))
        }
        print("layers:")
        for root in s.layers {
            for (layer, depth) in root.flattened() {
                let indent = String(repeating: "  ", count: depth + 1)
                // An svg layer names the file its sublayers came from, relative to the scene.
                let kind =
                    layer.type == .video
                    ? "video" : s.importedFiles[layer.name].map { "svg \(relative($0))" } ?? layer.type.rawValue
                print(
                    "\(indent)\(layer.name) (\(kind)) at [\(fmt(layer.position.x)), \(fmt(layer.position.y))], bounds \(fmt(layer.bounds.width))×\(fmt(layer.bounds.height))"
                )
                if layer.type == .text { print("\(indent)  \(describeText(layer.text))") }
                if let t = layer.terminal, layer.type == .terminal { printRecording(t, in: clip, indent: indent + "  ") }
                if !layer.filters.isEmpty { print("\(indent)  filters: \(layer.filters.map(describe).joined(separator: ", "))") }
                if !layer.backgroundFilters.isEmpty {
                    print("\(indent)  backgroundFilters: \(layer.backgroundFilters.map(describe).joined(separator: ", "))")
                }
                for a in layer.animations { print("\(indent)  \(describe(a))") }
                for u in layer.text.unitAnimations where layer.type == .text {
                    print(
                        "\(indent)  per \(u.unit.rawValue), stagger \(fmt(u.stagger)) s \(u.order.rawValue): "
                            + u.animations.map(describe).joined(separator: "; "))
                }
            }
        }
        // Videos are inputs too: what each file is, the part played and the size it is decoded at.
        let videos = s.videoLayerTimes(at: 0)
        if !videos.isEmpty { print("videos:") }
        for (name, playback, _) in videos {
            let facts = try? VideoSource.facts(path: playback.file)
            let about = facts.map { f in
                "\(f.codecName) \(f.width)×\(f.height), \(fmt(f.duration)) s"
                    + (f.frameRate.map { ", \(fmt(($0 * 1000).rounded() / 1000)) fps" } ?? "") + (f.hasAlpha ? ", alpha" : "")
                    + (f.rotation != 0 ? ", turned \(f.rotation)°" : "")
            }
            let size = clip.videoSizes[name].map { " decoded at \($0.width)×\($0.height)" } ?? ""
            print(
                "  \(name): \(relative(playback.file)) (\(about ?? "?")), plays \(fmt(playback.from))–\(fmt(playback.to)) s,\(size)"
            )
        }
        // Sound: each file, its length, and where it plays.
        let sounds =
            s.audio.map { ($0.file, describe($0)) }
            + videos.filter(\.playback.audio).map {
                ($0.playback.file, "the sound of layer \($0.name), in its time, volume \(fmt($0.playback.volume))")
            }
        if !sounds.isEmpty { print("audio:") }
        for (file, placing) in sounds {
            let facts = try? AudioSource(path: file).facts
            let about = facts.map { "\($0.codecName), \(fmt(($0.duration * 1000).rounded() / 1000)) s" } ?? "?"
            print("  \(relative(file)) (\(about)): \(placing)")
        }
        if let c = s.captions {
            let span = c.cues.isEmpty ? "" : ", \(fmt(c.cues.map(\.start).min()!))–\(fmt(c.cues.map(\.end).max()!)) s"
            print(
                "captions: \(c.cues.count) cue\(c.cues.count == 1 ? "" : "s")\(c.file.map { " from \(relative($0))" } ?? "")\(span)"
            )
        }
        // The fonts are inputs like images: which file each name opened.
        let fonts = s.fontNames
        if !fonts.isEmpty {
            print("fonts:")
            for name in fonts { print("  \(name): \(clip.text.fonts[name]?.path ?? "?")") }
        }
        for note in clip.notes { print("note: \(note)") }
    }

    /// Where a sound of the scene's `audio` list plays.
    func describe(_ a: AudioClip) -> String {
        var s = "at \(fmt(a.at)) s, plays \(fmt(a.from))–\(fmt(a.to)) s"
        if a.loop { s += " looped" }
        if a.volume != 1 { s += ", volume \(fmt(a.volume))" }
        if a.fadeIn > 0 { s += ", fade in \(fmt(a.fadeIn)) s" }
        if a.fadeOut > 0 { s += ", fade out \(fmt(a.fadeOut)) s" }
        return s
    }

    /// A Lottie file's features: what it uses, how often, where first, and what Reel does with each.
    /// A slot's default as --var would give it.
    static func shown(_ v: JSONNode) -> String {
        switch v.value {
        case .string(let s): return "\"\(s)\""
        case .number(let x): return x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
        case .array(let items): return "[" + items.map(shown).joined(separator: ", ") + "]"
        default: return v.kindName
        }
    }

    func printCensus(_ c: LottieCensus) {
        print(
            "lottie: Bodymovin \(c.version ?? "?"), \(fmt(c.frameRate)) fps, frames \(fmt(c.inPoint))–\(fmt(c.outPoint)), "
                + "\(fmt(c.size.width))×\(fmt(c.size.height))")
        let width = c.features.map(\.tag.count).max() ?? 0
        for f in c.features {
            let tag = f.tag.padding(toLength: width, withPad: " ", startingAt: 0)
            let status = f.support.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
            let note = f.note.isEmpty ? "" : " — \(f.note)"
            let count = "×\(f.count)".padding(toLength: 6, withPad: " ", startingAt: 0)
            print("  \(status) \(tag) \(count) first at \(f.example)\(note)")
        }
        let ignored = c.features.filter { $0.support != .drawn }.count
        print("  \(ignored == 0 ? "Reel draws every feature this file uses" : "\(ignored) feature(s) not drawn in full (above)")")
    }

    func relative(_ file: String) -> String {
        let folder = URL(fileURLWithPath: scene).deletingLastPathComponent().standardized.path
        return file.hasPrefix(folder + "/") ? String(file.dropFirst(folder.count + 1)) : file
    }

    /// A filter as its key paths name it, with the inputs its type takes.
    func describe(_ f: LayerFilter) -> String {
        let inputs = f.type.inputs.map { input -> String in
            switch input.get(f) {
            case .number(let v): return "\(input.rawValue) \(fmt(v))"
            case .numbers(let v): return "\(input.rawValue) \(list(v))"
            default: return input.rawValue
            }
        }
        return "\(f.name) (\(f.type.rawValue)\(inputs.isEmpty ? "" : " " + inputs.joined(separator: " ")))"
    }

    func list(_ v: [Double]) -> String { "[" + v.map(fmt).joined(separator: ", ") + "]" }

    func describeText(_ t: TextProperties) -> String {
        let text = t.runs.isEmpty ? t.string : t.runs.map(\.text).joined()
        let shown = text.count > 40 ? String(text.prefix(39)) + "…" : text
        let quoted = shown.replacingOccurrences(of: "\n", with: "\\n")
        let runs = t.runs.isEmpty ? "" : " in \(t.runs.count) runs"
        return "text \"\(quoted)\"\(runs), \(t.font) \(fmt(t.fontSize)) pt, \(t.alignmentMode.rawValue)"
            + (t.isWrapped ? ", wrapped" : "")
    }

    func describe(_ a: Animation) -> String {
        func window(_ t: MediaTiming) -> String {
            // Microseconds are enough, and 0.91 + 0.5 prints as 1.41, not 1.4100000000000001.
            func seconds(_ v: Double) -> String { fmt((v * 1e6).rounded() / 1e6) }
            let end = t.endTime.isFinite ? seconds(t.endTime) : "∞"
            return "\(seconds(t.beginTime))–\(end) s"
        }
        switch a {
        case .basic(let b): return "basic \(b.keyPath), \(window(b.timing))"
        case .keyframe(let k):
            return "keyframe \(k.keyPath), \(k.values.count) values, \(k.calculationMode.rawValue), \(window(k.timing))"
        case .spring(let s): return "spring \(s.base.keyPath), \(window(s.base.timing))"
        case .popSpring(let p): return "popSpring \(p.keyPath) from \(fmt(p.beginTime)) s"
        case .group(let g):
            return "group of \(g.animations.count) (\(g.animations.map(\.keyPath).joined(separator: ", "))), \(window(g.timing))"
        }
    }
}

struct Timeline: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a layer's presentation value of one key path over time.",
        discussion: """
            Values: numbers as numbers, points [x, y], sizes [w, h], rects [x, y, w, h], colours \
            [r, g, b, a] in 0…1, transforms as the 16 numbers m11…m44.

            Example:
              reel timeline examples/spring-button.yaml --layer button --key transform.scale --fps 30
            """)

    @Argument(help: ArgumentHelp("The scene file (JSON).", valueName: "scene"))
    var scene: String

    @Option(help: ArgumentHelp("The layer's name.", valueName: "name"))
    var layer: String

    @Option(
        help: ArgumentHelp(
            "The key path, as in Core Animation (opacity, position, transform.scale.x, strokeEnd…).", valueName: "keypath"))
    var key: String

    @Option(help: ArgumentHelp("Times in seconds, comma separated.", valueName: "t1,t2,…"))
    var at: String?

    @Option(help: ArgumentHelp("Sample every frame at this rate over the clip instead.", valueName: "rate"))
    var fps: String?

    @Option(help: ArgumentHelp("json or csv.", valueName: "format"))
    var format: String = "json"

    func validate() throws {
        guard (at == nil) != (fps == nil) else { throw ValidationError("give either --at or --fps") }
        guard ["json", "csv"].contains(format) else { throw ValidationError("--format is json or csv, got '\(format)'") }
        if let fps, FrameRate(parsing: fps) == nil {
            throw ValidationError("--fps must be a positive rate such as 30, got '\(fps)'")
        }
        if let at {
            for part in at.split(separator: ",") {
                guard let t = Double(part.trimmingCharacters(in: .whitespaces)), t.isFinite, t >= 0 else {
                    throw ValidationError("--at takes times in seconds ≥ 0, separated by commas; '\(part)' is not one")
                }
            }
        }
    }

    func run() throws {
        let s = try Reel.load(scene).scene
        guard let keyPath = AnimatedKeyPath(rawValue: key) else {
            let names = LayerKeyPath.allCases.map(\.rawValue) + ["filters.<name>.<input>"]
            throw ReelError.usage(
                "--key: \"\(key)\" is not an animatable key path", fix: "use one of \(names.joined(separator: ", "))")
        }
        guard s.layers.find(layer) != nil else {
            let names = s.layers.flatMap { $0.flattened().map(\.layer.name) }
            throw ReelError.usage("--layer: no layer is named \"\(layer)\"", fix: "layers: \(names.joined(separator: ", "))")
        }
        let times: [Double]
        if let at {
            times = at.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        } else {
            let rate = FrameRate(parsing: fps!)!
            times = (0..<rate.frameCount(duration: s.duration)).map { rate.time(ofFrame: $0) }
        }
        var rows: [(time: Double, json: String, csv: [String])] = []
        for t in times {
            guard let l = s.sample(at: t).layers.find(layer) else { continue }
            let v = keyPath.get(l)
            rows.append((t, json(v), csv(v)))
        }
        if format == "csv" {
            print("time,value")
            for row in rows { print(([fmt(row.time)] + row.csv).joined(separator: ",")) }
        } else {
            let items = rows.map { "{\"time\": \(fmt($0.time)), \"value\": \($0.json)}" }
            print("[\n  " + items.joined(separator: ",\n  ") + "\n]")
        }
    }

    func list(_ v: [Double]) -> String { "[" + v.map(fmt).joined(separator: ", ") + "]" }

    /// Numbers as numbers, points [x, y], sizes [w, h], rects [x, y, w, h], colours [r, g, b, a],
    /// transforms the 16 numbers m11…m44, paths SVG path data, arrays as arrays.
    func json(_ v: AnimatableValue) -> String {
        switch v {
        case .number(let x): return fmt(x)
        case .point(let p): return list([p.x, p.y])
        case .size(let s): return list([s.width, s.height])
        case .rect(let r): return list([r.origin.x, r.origin.y, r.size.width, r.size.height])
        case .color(let c): return list([c.red, c.green, c.blue, c.alpha])
        case .transform(let t): return list(t.values)
        case .path(let p): return "\"" + p.svgPathData + "\""
        case .numbers(let n): return list(n)
        case .colors(let cs): return "[" + cs.map { list([$0.red, $0.green, $0.blue, $0.alpha]) }.joined(separator: ", ") + "]"
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return "\"" + s + "\""
        }
    }

    func csv(_ v: AnimatableValue) -> [String] {
        switch v {
        case .number(let x): return [fmt(x)]
        case .point(let p): return [p.x, p.y].map(fmt)
        case .size(let s): return [s.width, s.height].map(fmt)
        case .rect(let r): return [r.origin.x, r.origin.y, r.size.width, r.size.height].map(fmt)
        case .color(let c): return [c.red, c.green, c.blue, c.alpha].map(fmt)
        case .transform(let t): return t.values.map(fmt)
        case .path(let p): return ["\"" + p.svgPathData + "\""]
        case .numbers(let n): return n.map(fmt)
        case .colors(let cs): return cs.flatMap { [$0.red, $0.green, $0.blue, $0.alpha] }.map(fmt)
        case .bool(let b): return [b ? "true" : "false"]
        case .string(let s): return ["\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""]
        }
    }
}

/// Shortest decimal that reads back as the same double (JSON-safe: no NaN or infinity reach here).
func fmt(_ v: Double) -> String {
    if v.isNaN || v.isInfinite { return "null" }
    if v == v.rounded() && abs(v) < 1e15 { return String(Int(v)) }
    return "\(v)"
}

func colour(_ c: Color) -> String {
    func h(_ v: Double) -> String { String(format: "%02x", Int((min(max(v, 0), 1) * 255).rounded())) }
    return "#" + h(c.red) + h(c.green) + h(c.blue) + (c.alpha < 1 ? h(c.alpha) : "")
}
