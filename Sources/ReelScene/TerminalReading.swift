/// `type: terminal` layers: the recording named by `contents` probed through the decoder's
/// `LayerImporter`, the grid, font, theme and cursor keys, the layer timed by the recording.
import ReelDocument
import ReelGeometry

extension Reader {
    static let terminalLayerKeys = [
        "columns", "rows", "fontFamily", "fontSize", "lineHeight", "theme", "cursor", "cursorBlink", "padding",
        "idleTimeLimit", "startAt",
    ]
    static let terminalThemeKeys = ["foreground", "background", "cursor", "palette"]

    func readTerminal(_ m: [String: JSONNode], _ node: JSONNode, _ path: String, into layer: inout Layer) throws(SceneError) {
        let contentsPath = join(path, "contents")
        guard let contentsNode = m["contents"], let name = layer.contents else {
            throw fail(
                node, contentsPath, "a terminal layer needs the recording it plays in \"contents\"",
                fix: "add \"contents\": \"session.cast\" (asciinema rec or reel record writes one)")
        }
        // The recording is played, not drawn as a picture.
        layer.contents = nil
        imports.terminals += 1
        guard imports.terminals <= Scene.maximumTerminalLayers else {
            throw fail(
                contentsNode, contentsPath, "more than \(Scene.maximumTerminalLayers) terminal layers",
                fix: "render parts of the scene separately and place the results as videos")
        }
        guard let probe = importer?.probeTerminal else {
            throw fail(
                contentsNode, contentsPath, "this reader cannot open terminal recordings",
                fix: "load the scene with Reel.load, which plays them")
        }
        var idleTimeLimit: Double?
        if let n = m["idleTimeLimit"] {
            let v = try number(n, join(path, "idleTimeLimit"))
            guard v > 0, v.isFinite else {
                throw fail(n, join(path, "idleTimeLimit"), "idleTimeLimit is a number of seconds above 0, got \(v)", fix: "use 2")
            }
            idleTimeLimit = v
        }
        let resolved = ResolvedFile(name, in: file)
        let facts: TerminalFileFacts
        do {
            facts = try probe(resolved, idleTimeLimit)
        } catch {
            throw fail(
                contentsNode, contentsPath, "\"\(name)\" cannot be played: \(error.description)",
                fix: error.fix ?? "give an asciicast v2 or v3 recording (asciinema rec or reel record writes one)")
        }
        var t = TerminalProperties(
            name: name, file: resolved.path, columns: facts.columns, rows: facts.rows, length: facts.length)
        t.idleTimeLimit = idleTimeLimit
        func count(_ key: String, _ maximum: Int) throws(SceneError) -> Int? {
            guard let n = m[key] else { return nil }
            let v = try number(n, join(path, key))
            guard v >= 1, v <= Double(maximum), v == v.rounded() else {
                throw fail(n, join(path, key), "\(key) is a whole number of cells in 1…\(maximum), got \(v)")
            }
            return Int(v)
        }
        t.columns = try count("columns", TerminalProperties.maximumColumns) ?? t.columns
        t.rows = try count("rows", TerminalProperties.maximumRows) ?? t.rows
        if t.columns * t.rows > TerminalProperties.maximumCells, let n = m["columns"] ?? m["rows"] {
            throw fail(
                n, path, "a \(t.columns) × \(t.rows) grid has more than \(TerminalProperties.maximumCells) cells",
                fix: "give fewer columns or rows")
        }
        if let n = m["startAt"] {
            let v = try number(n, join(path, "startAt"))
            guard v >= 0, v < facts.length || (v == 0 && facts.length == 0) else {
                throw fail(
                    n, join(path, "startAt"),
                    "startAt must be a second of the recording in 0…\(Self.seconds(facts.length)) (its played length), got \(v)",
                    fix: "start before its last event")
            }
            t.startAt = v
        }
        if let n = m["fontFamily"] { t.fontFamily = try fontName(n, join(path, "fontFamily"), layer: layer.name) }
        if let n = m["fontSize"] {
            let v = try fontSize(n, join(path, "fontSize"))
            guard v > 0 else { throw fail(n, join(path, "fontSize"), "fontSize must be above 0 points") }
            t.fontSize = v
        }
        if let n = m["lineHeight"] {
            let v = try number(n, join(path, "lineHeight"))
            guard v > 0, v <= 10 else {
                throw fail(n, join(path, "lineHeight"), "lineHeight is a multiple of the font's line height in (0, 10], got \(v)")
            }
            t.lineHeight = v
        }
        if let n = m["theme"] { t.theme = try terminalTheme(n, join(path, "theme"), recorded: facts.theme) }
        if let n = m["cursor"] { t.cursor = try choice(n, join(path, "cursor"), TerminalCursor.self) }
        if let n = m["cursorBlink"] { t.cursorBlink = try bool(n, join(path, "cursorBlink")) }
        if let n = m["padding"] {
            let v = try number(n, join(path, "padding"))
            guard v >= 0, v <= 10_000 else { throw fail(n, join(path, "padding"), "padding is in points, 0…10000, got \(v)") }
            t.padding = v
        }
        t.sizedByFont = m["bounds"] == nil
        layer.terminal = t
        // As for a video: a timing without a duration repeats (and fills) what is played.
        if var timing = layer.timing, timing.duration <= 0 {
            timing.duration = max(t.length - t.startAt, 0)
            layer.timing = timing
        }
        imports.files.append((layer.name, resolved.path))
    }

    /// A sublayer's cells in its terminal superlayer's grid: [column, row, columns, rows], from the top
    /// left, whole or fractional (a highlight may slide between rows).
    func cells(_ node: JSONNode, _ path: String, givenFrame: JSONNode?) throws(SceneError) -> Rect {
        if let givenFrame {
            throw fail(
                givenFrame, path, "cells sets the layer's position and bounds from its terminal's grid; give one or the other",
                fix: "remove position and bounds")
        }
        let v = try components(
            node, path, names: ["column", "row", "columns", "rows"], what: "cells of the terminal's grid",
            example: "[0, 3, 40, 1]")
        guard v[0] >= 0, v[1] >= 0, v[2] >= 0, v[3] >= 0, v.allSatisfy({ $0 <= 1_000 }) else {
            throw fail(node, path, "cells are [column, row, columns, rows], each 0…1000, got \(v)", fix: "e.g. [0, 3, 40, 1]")
        }
        return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    /// A built-in theme's name, `recording` (the colours saved in the recording), or an object of
    /// foreground, background, cursor and a palette of 8 or 16 colours.
    func terminalTheme(_ node: JSONNode, _ path: String, recorded: TerminalTheme?) throws(SceneError) -> TerminalTheme {
        let names = TerminalTheme.builtIn.keys.sorted() + ["recording"]
        if case .string(let s) = node.value {
            if s == "recording" {
                guard let recorded else {
                    throw fail(
                        node, path, "the recording saved no colours", fix: "name a theme: \(names.joined(separator: ", "))")
                }
                return recorded
            }
            guard let theme = TerminalTheme.builtIn[s] else {
                throw fail(
                    node, path, "\"\(s)\" is not a theme",
                    fix: "\(didYouMean(s, in: names))use one of \(names.joined(separator: ", ")), or give the colours")
            }
            return theme
        }
        let m = try members(node, path, known: Self.terminalThemeKeys, what: "a terminal theme")
        guard let fg = m["foreground"], let bg = m["background"] else {
            throw fail(node, path, "a theme needs its \"foreground\" and \"background\"", fix: "or name a built-in: dark, light")
        }
        var theme = TerminalTheme.dark
        theme.foreground = try color(fg, join(path, "foreground"))
        theme.background = try color(bg, join(path, "background"))
        theme.cursor = try m["cursor"].map { n throws(SceneError) in try color(n, join(path, "cursor")) } ?? theme.foreground
        if let n = m["palette"] {
            let list = try array(n, join(path, "palette"))
            guard list.count == 8 || list.count == 16 else {
                throw fail(n, join(path, "palette"), "a palette has 8 or 16 colours, got \(list.count)")
            }
            var colors: [Color] = []
            for (i, c) in list.enumerated() { colors.append(try color(c, "\(join(path, "palette"))[\(i)]")) }
            // Eight colours serve as the bright ones too.
            theme.palette = colors.count == 8 ? colors + colors : colors
        }
        return theme
    }
}
