/// Terminal layers' players: one emulator per layer, played forward as a clip plays; the screens one
/// frame's snapshot shows; and what a recording says while a scene is read.
import ReelDocument
import ReelGeometry
import ReelRender
import ReelScene
import ReelTerminal

/// The players of a clip's terminal layers, by layer name, each made when first asked for from the
/// recording the clip read when it was loaded.
final class TerminalPlayers: @unchecked Sendable {
    private let recordings: [String: TerminalRecording]
    private var players: [String: TerminalPlayer] = [:]

    /// Nil for a scene without terminal layers.
    init?(scene: Scene, recordings: [String: TerminalRecording]) {
        guard !scene.terminalLayers.isEmpty else { return nil }
        self.recordings = recordings
    }

    /// Adds the screens a snapshot shows (`SceneRenderer.terminalScreens(in:)`) to `pictures`.
    func screens(for requests: [TerminalScreenRequest], into pictures: inout LayerPictures) throws(ReelError) {
        for r in requests {
            pictures[screenOf: r.layer, at: r.recordingTime] = try player(r.layer, r.terminal).screen(at: r.recordingTime)
        }
    }

    private func player(_ name: String, _ t: TerminalProperties) throws(ReelError) -> TerminalPlayer {
        if let p = players[name] { return p }
        guard let recording = recordings[t.file] else {
            throw .usage("terminal layer \"\(name)\": its recording \(t.name) was not loaded with the clip", fix: nil)
        }
        let p = TerminalPlayer(recording: recording, idleTimeLimit: t.idleTimeLimit ?? recording.idleTimeLimit)
        players[name] = p
        return p
    }
}

extension Reel {
    /// What a `type: terminal` layer's recording says: its size, its played length with `idleTimeLimit`
    /// (or the recording's own) applied, and its saved colours.
    static func probeTerminal(_ path: String, idleTimeLimit: Double?) throws(DocumentError) -> TerminalFileFacts {
        let recording = try TerminalRecording.read(contentsOf: path)
        let times = recording.playedTimes(idleTimeLimit: idleTimeLimit ?? recording.idleTimeLimit)
        return TerminalFileFacts(
            columns: recording.columns, rows: recording.rows, length: times.last ?? 0,
            theme: recording.theme.map(Self.theme))
    }

    /// A recorder's colours as a theme: eight palette colours serve as the bright ones too.
    static func theme(_ recorded: RecordedTheme) -> TerminalTheme {
        func color(_ c: TerminalRGB) -> Color {
            Color(red: Double(c.red) / 255, green: Double(c.green) / 255, blue: Double(c.blue) / 255)
        }
        let palette = recorded.palette.map(color)
        return TerminalTheme(
            foreground: color(recorded.foreground), background: color(recorded.background),
            palette: palette.count == 8 ? palette + palette : palette)
    }
}
