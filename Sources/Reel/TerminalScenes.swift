/// Terminal layers made ready to draw: their font families opened as four faces, their bounds the
/// grid's natural size where the scene gives none; and a recording rendered alone as a one-layer scene.
import Foundation
import ReelDocument
import ReelGeometry
import ReelRender
import ReelScene
import ReelTerminal
import ReelText

extension Reel {
    /// What a recording rendered alone lasts past its last event: the final screen is read, not flashed.
    public static let recordingFinalHold = 2.0
    /// A recording alone is drawn with this many points of the theme's background around the grid, in
    /// ems of its font size.
    static let recordingPadding = 1.0

    /// The four faces of a terminal font family, by the name a scene gives (an installed family, or one
    /// face's name, which is then drawn for every style); `place` locates a failure.
    static func terminalFaces(_ family: String, failure: (String, String?) -> ReelError) throws(ReelError) -> TerminalFaces {
        let library = FontLibrary.shared
        let members = library.catalog.fonts.filter { d in
            d.familyNames.contains { $0.caseInsensitiveCompare(family) == .orderedSame }
        }
        func open(_ d: FontDescription?) -> FontFace? { d.flatMap { try? library.face(path: $0.path, index: $0.index) } }
        func kind(_ d: FontDescription) -> (bold: Bool, italic: Bool) {
            let s = d.style.lowercased()
            return (s.contains("bold"), s.contains("italic") || s.contains("oblique"))
        }
        let plain = members.filter { kind($0) == (false, false) }
        let regular =
            plain.first { ["regular", "book", "roman", "normal"].contains($0.style.lowercased()) } ?? plain.first
        if let face = open(regular) {
            return TerminalFaces(
                regular: face, bold: open(members.first { kind($0) == (true, false) }),
                italic: open(members.first { kind($0) == (false, true) }),
                boldItalic: open(members.first { kind($0) == (true, true) }))
        }
        switch library.installed(family) {
        case .found(let face):
            return TerminalFaces(regular: face)
        case .notInstalled(let suggestions):
            let hint = suggestions.first.map { "did you mean \"\($0)\"? " } ?? ""
            throw failure(
                "no font \"\(family)\"", "\(hint)`reel fonts` lists the installed fonts; a monospace one suits a terminal")
        case .unreadable(let error):
            throw failure("the font \"\(family)\" cannot be read: \(error.message)", "reinstall it, or name another font")
        }
    }

    /// Opens the font families of the scene's terminal layers and gives the layers sized by their font
    /// the grid's natural bounds.
    static func prepareTerminals(_ scene: inout Scene, file: String) throws(ReelError) -> [String: TerminalFaces] {
        var faces: [String: TerminalFaces] = [:]
        for (_, t) in scene.terminalLayers where faces[t.fontFamily] == nil {
            let place = scene.fontReferences[t.fontFamily]
            faces[t.fontFamily] = try terminalFaces(t.fontFamily) { message, fix in
                .scene(SceneError(file: file, location: place?.location, path: place?.path, message: message, fix: fix))
            }
        }
        guard !faces.isEmpty else { return faces }
        func size(_ layer: inout Layer) {
            if layer.type == .terminal, let t = layer.terminal, t.sizedByFont, let f = faces[t.fontFamily] {
                layer.bounds = Rect(origin: .zero, size: f.naturalSize(of: t))
            }
            for i in layer.sublayers.indices { size(&layer.sublayers[i]) }
            if var mask = layer.mask {
                size(&mask)
                layer.mask = mask
            }
        }
        for i in scene.layers.indices { size(&scene.layers[i]) }
        return faces
    }

    /// A terminal layer playing the recording at `path`, for a scene made in Swift (what `type: terminal`
    /// is in a scene file): its grid the recording's size, its bounds the grid's natural size in its font
    /// unless set afterwards (made when the clip is prepared), pauses past `idleTimeLimit` cut.
    public static func terminalLayer(contentsOf path: String, name: String, idleTimeLimit: Double? = nil) throws(ReelError)
        -> Layer
    {
        let facts: TerminalFileFacts
        do {
            try InputFiles.check(path)
            facts = try probeTerminal(path, idleTimeLimit: idleTimeLimit)
        } catch {
            throw .scene(error)
        }
        var t = TerminalProperties(name: path, file: path, columns: facts.columns, rows: facts.rows, length: facts.length)
        t.idleTimeLimit = idleTimeLimit
        var layer = Layer(name: name, type: .terminal)
        layer.terminal = t
        return layer
    }

    /// What a recording rendered alone may be given as its theme: a built-in one, or the colours the
    /// recording saved.
    static var terminalThemeNames: [String] { TerminalTheme.builtIn.keys.sorted() + ["recording"] }

    /// Refuses a preset's terminal keys (`theme`, `fontSize`, `idleTimeLimit`) for an input that is not
    /// a terminal recording, at the place the preset sets them: they would do nothing there (the command
    /// line's options are refused likewise, by `loadScene`).
    public static func checkTerminalLooks(_ preset: Preset, input: String) throws(ReelError) {
        guard !isRecording(input) else { return }
        let given: [(Setting, Bool)] = [
            (.theme, preset.settings.theme != nil), (.fontSize, preset.settings.fontSize != nil),
            (.idleTimeLimit, preset.settings.idleTimeLimit != nil),
        ]
        guard let setting = given.first(where: \.1)?.0 else { return }
        throw .scene(
            preset.fail(
                setting.rawValue, "\(setting.rawValue) applies to a terminal recording rendered alone, and \(input) is not one",
                fix: "remove it, or give it for .cast recordings only (a scene sets it on its terminal layer)"))
    }

    /// A recording rendered alone: one terminal layer the size of its grid (with a padding of one em),
    /// lasting the played recording and `recordingFinalHold`. It is laid out in the output's pixels
    /// (`--scale`, `--width` and `--size` scale its font, not the drawing), its cells and padding
    /// whole pixels, as a terminal's are: each row then lies on the pixel grid as every other row does,
    /// so text that scrolls keeps its pixels (the GIF writer finds the rows it coded a frame before,
    /// and no glyph shimmers from row to row); the scene's scale is 1.
    static func terminalScene(_ path: String, overrides: SceneOverrides) throws(ReelError) -> Scene {
        let facts: TerminalFileFacts
        do {
            facts = try probeTerminal(path, idleTimeLimit: overrides.idleTimeLimit)
        } catch {
            throw .scene(error)
        }
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        var t = TerminalProperties(name: name, file: path, columns: facts.columns, rows: facts.rows, length: facts.length)
        t.idleTimeLimit = overrides.idleTimeLimit
        if let size = overrides.fontSize { t.fontSize = size }
        t.padding = t.fontSize * recordingPadding
        if let theme = overrides.terminalTheme {
            if theme == "recording" {
                guard let recorded = facts.theme else {
                    throw .usage("\(path): the recording saved no colours", fix: Message("name a theme: dark, light"))
                }
                t.theme = recorded
            } else {
                guard let builtIn = TerminalTheme.builtIn[theme] else {
                    let names = terminalThemeNames
                    throw .usage(
                        "\(Setting.theme): \"\(theme)\" is not a theme",
                        fix: Message("\(didYouMean(theme, in: names))use one of \(names.joined(separator: ", "))"))
                }
                t.theme = builtIn
            }
        }
        let faces = try terminalFaces(t.fontFamily) { message, fix in .usage(Message(message), fix: fix.map { Message($0) }) }
        // Pixels a point: what the scale, width or size asked of the natural canvas (whole points).
        let natural = faces.naturalSize(of: t)
        let canvas = Size(width: natural.width.rounded(.up), height: natural.height.rounded(.up))
        var scale = overrides.scale ?? 1
        // The canvas's pixels where the output's width or size is asked for.
        var fixedWidth: Double?, fixedHeight: Double?
        if let w = overrides.width {
            fixedWidth = Double(try OutputWidth(w).pixels)
            scale = fixedWidth! / canvas.width
        }
        if let size = overrides.size {
            let size = try OutputSettings.PixelSize(checking: size.width, size.height)
            (fixedWidth, fixedHeight) = (Double(size.width), Double(size.height))
            scale = min(Double(size.width) / canvas.width, Double(size.height) / canvas.height)
        }
        guard scale.isFinite && scale > 0 else { throw .usage("\(Setting.scale): must be a positive number", fix: nil) }
        t.fontSize *= scale
        let padding = t.padding * scale
        t.padding = padding.rounded()
        let cell = faces.naturalCell(of: t)
        func grid(_ cell: Size) -> Size {
            Size(width: Double(t.columns) * cell.width + 2 * t.padding, height: Double(t.rows) * cell.height + 2 * t.padding)
        }
        // The nearest whole pixels, or fewer where the size asked for has no room for them.
        var size = grid(Size(width: max(1, cell.width.rounded()), height: max(1, cell.height.rounded())))
        if size.width > fixedWidth ?? .infinity || size.height > fixedHeight ?? .infinity {
            size = grid(Size(width: max(1, cell.width.rounded(.down)), height: max(1, cell.height.rounded(.down))))
        }
        // Smaller than a pixel a cell: the natural grid scaled, which fits (the canvas was fitted).
        if size.width > fixedWidth ?? .infinity || size.height > fixedHeight ?? .infinity {
            t.padding = padding
            size = grid(cell)
        }
        t.sizedByFont = false
        var layer = Layer(name: name, type: .terminal)
        layer.bounds = Rect(origin: .zero, size: size)
        layer.anchorPoint = .zero
        layer.terminal = t
        guard let fps = FrameRate(numerator: 30, denominator: 1) else { throw .usage("no frame rate", fix: nil) }
        let width = fixedWidth ?? size.width, height = fixedHeight ?? size.height
        // Centred on whole pixels in a size asked for; what is left over is more of the background.
        layer.position = Point(x: ((width - size.width) / 2).rounded(.down), y: ((height - size.height) / 2).rounded(.down))
        var scene = Scene(width: width, height: height, fps: fps, duration: facts.length + recordingFinalHold)
        scene.background = t.theme.background
        scene.layers = [layer]
        return scene
    }
}
