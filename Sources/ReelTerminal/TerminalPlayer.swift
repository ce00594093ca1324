/// A recording played forward through an emulator: the screen at any time of it, each event applied
/// once as time passes (an earlier time plays the recording again from its start).

/// The screens of one recording, asked for at increasing times (a render's frames). One thread at a time.
public final class TerminalPlayer {
    public let recording: TerminalRecording
    /// Each event's time as played (pauses cut by the idle limit).
    public let times: [Double]
    private var emulator: TerminalEmulator
    /// Events before this one are applied.
    private var next = 0

    /// An event is on screen from the frame whose time reaches it: this much short counts as reaching
    /// it (times pass through sums and products of decimals; a frame lasts far longer).
    public static let boundarySlack = 1e-9

    public init(recording: TerminalRecording, idleTimeLimit: Double?) {
        self.recording = recording
        times = recording.playedTimes(idleTimeLimit: idleTimeLimit)
        emulator = TerminalEmulator(columns: recording.columns, rows: recording.rows)
    }

    /// The played length: the last event's time after the idle limit.
    public var length: Double { times.last ?? 0 }

    /// Screens kept by how many events made them: a clip played backwards (`autoreverses`) or a
    /// replicator's delayed copies ask for earlier screens, which the emulator could only reach by
    /// playing the recording again from its start.
    private var kept: [Int: TerminalScreen] = [:]
    private var keptOrder: [Int] = []
    static let keptScreens = 256

    /// The screen at `time` seconds of the played recording: every event at or before it applied.
    public func screen(at time: Double) -> TerminalScreen {
        let t = time.isFinite ? time + Self.boundarySlack : 0
        // How many events have happened by t (times never decrease): a binary search.
        var lo = 0, hi = times.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if times[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        let count = lo
        if let screen = kept[count] { return screen }
        if count < next {
            emulator = TerminalEmulator(columns: recording.columns, rows: recording.rows)
            next = 0
        }
        while next < count {
            switch recording.events[next].kind {
            case .output(let range): emulator.write(recording.output[range])
            case .resize(let columns, let rows): emulator.resize(columns: columns, rows: rows)
            case .marker, .input, .exit: break
            }
            next += 1
        }
        let screen = emulator.currentScreen()
        if keptOrder.count >= Self.keptScreens { kept[keptOrder.removeFirst()] = nil }
        kept[count] = screen
        keptOrder.append(count)
        return screen
    }
}
