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
    /// A summary of the recording a terminal layer of `clip` plays (read when the clip was loaded); nil
    /// for a layer whose recording the clip does not hold.
    public static func recordingSummary(of terminal: TerminalProperties, in clip: Clip) -> RecordingSummary? {
        guard let r = clip.recordings[terminal.file] else { return nil }
        let limit = terminal.idleTimeLimit ?? r.idleTimeLimit
        let times = r.playedTimes(idleTimeLimit: limit)
        var summary = RecordingSummary(
            columns: r.columns, rows: r.rows, recordedLength: r.length, playedLength: times.last ?? 0, idleTimeLimit: limit,
            outputEvents: 0, resizes: 0, inputEvents: 0, markers: [], title: r.title)
        for (i, e) in r.events.enumerated() {
            switch e.kind {
            case .output: summary.outputEvents += 1
            case .resize: summary.resizes += 1
            case .input: summary.inputEvents += 1
            case .marker(let label): summary.markers.append((times[i], label))
            case .exit: break
            }
        }
        return summary
    }
}
