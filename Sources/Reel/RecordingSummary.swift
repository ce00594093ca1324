/// What `reel info` says of a terminal layer's recording: its size, lengths, events and markers.
import ReelScene
import ReelTerminal

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
