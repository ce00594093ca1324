/// Terminal layers' players: one emulator per layer, played forward as a clip plays; the screens one
/// frame's snapshot shows; and what a recording says while a scene is read.
import ReelDocument
import ReelGeometry
import ReelRender
import ReelScene
import ReelTerminal

/// The players of a clip's terminal layers, by layer name, each opened when first asked for (its
/// recording read again: the scene kept only its facts).
final class TerminalPlayers: @unchecked Sendable {
    private let layers: [String: TerminalProperties]
    private var players: [String: TerminalPlayer] = [:]

    /// Nil for a scene without terminal layers.
    init?(scene: Scene) {
        let layers = scene.terminalLayers
        guard !layers.isEmpty else { return nil }
        self.layers = Dictionary(layers.map { ($0.name, $0.terminal) }, uniquingKeysWith: { a, _ in a })
    }

    /// Adds the screens `snapshot` shows to `pictures`.
    func screens(for snapshot: Snapshot, into pictures: inout LayerPictures) throws(ReelError) {
        for r in SceneRenderer.terminalScreens(in: snapshot) {
            pictures[screenOf: r.layer, at: r.recordingTime] = try player(r.layer, r.terminal).screen(at: r.recordingTime)
        }
    }

    private func player(_ name: String, _ t: TerminalProperties) throws(ReelError) -> TerminalPlayer {
        if let p = players[name] { return p }
        let recording: TerminalRecording
        do {
            recording = try TerminalRecording.read(contentsOf: t.file)
        } catch {
            throw .usage("\(t.name): \(error.description)", fix: "give an asciicast v2 or v3 recording")
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

/// What `reel info` says of a terminal layer's recording.
public struct RecordingSummary: Sendable {
    public var columns: Int
    public var rows: Int
    /// The last event's time as recorded, and as played (the idle limit applied).
    public var recordedLength: Double
    public var playedLength: Double
    /// The idle limit applied: the layer's, else the recording's own.
    public var idleTimeLimit: Double?
    public var outputEvents: Int
    public var resizes: Int
    public var inputEvents: Int
    /// Each marker's played time and label.
    public var markers: [(time: Double, label: String)]
    public var title: String?
}

extension Reel {
    /// A summary of the recording a terminal layer plays, nil when it cannot be read (loading the scene
    /// has already said why).
    public static func recordingSummary(of terminal: TerminalProperties) -> RecordingSummary? {
        guard let r = try? TerminalRecording.read(contentsOf: terminal.file) else { return nil }
        let limit = terminal.idleTimeLimit ?? r.idleTimeLimit
        let times = r.playedTimes(idleTimeLimit: limit)
        let census = r.census
        var markers: [(time: Double, label: String)] = []
        for (i, e) in r.events.enumerated() { if case .marker(let label) = e.kind { markers.append((times[i], label)) } }
        return RecordingSummary(
            columns: r.columns, rows: r.rows, recordedLength: r.length, playedLength: times.last ?? 0, idleTimeLimit: limit,
            outputEvents: census.output, resizes: census.resizes, inputEvents: census.input, markers: markers, title: r.title)
    }
}
