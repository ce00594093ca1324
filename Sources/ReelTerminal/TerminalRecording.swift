/// A terminal recording as a model: its size, the events in time order, and the output bytes they write
/// (asciicast files read into it: AsciicastReading.swift).
public struct TerminalRecording: Sendable, Equatable {
    /// The asciicast version the file was written in (2 or 3).
    public var version: Int
    /// The terminal's size in cells when the recording starts.
    public var columns: Int
    public var rows: Int
    public var title: String?
    /// The recorder's own idle limit (`idle_time_limit`), if the header gives one.
    public var idleTimeLimit: Double?
    /// The recorder's colours (the header's `theme`), if it gives them.
    public var theme: RecordedTheme?
    public var events: [TerminalEvent] = []
    /// Every output event's bytes, one after another (`TerminalEvent.Kind.output` gives each one's range).
    public var output: [UInt8] = []

    public init(version: Int, columns: Int, rows: Int) {
        self.version = version
        self.columns = columns
        self.rows = rows
    }

    /// The time of the last event, in seconds of the recording.
    public var length: Double { events.last?.time ?? 0 }

    /// Each event's time once every pause longer than `idleTimeLimit` is cut to it (what asciinema's
    /// player and agg do with the same setting); the recording's own times without one.
    public func playedTimes(idleTimeLimit: Double?) -> [Double] {
        guard let limit = idleTimeLimit, limit > 0 else { return events.map(\.time) }
        var out: [Double] = []
        out.reserveCapacity(events.count)
        var previous = 0.0, played = 0.0
        for e in events {
            played += min(e.time - previous, limit)
            previous = e.time
            out.append(played)
        }
        return out
    }
}

/// One thing that happened in a recording, at `time` seconds from its start.
public struct TerminalEvent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Bytes the program wrote: `output[range]` of the recording.
        case output(Range<Int>)
        /// The terminal took a new size.
        case resize(columns: Int, rows: Int)
        /// A point the recorder marked, with its label (may be empty).
        case marker(String)
        /// Keys typed (not drawn: what they echo is output).
        case input
        /// The session ended with this status (asciicast v3).
        case exit(Int)
    }

    public var time: Double
    public var kind: Kind

    public init(time: Double, kind: Kind) {
        self.time = time
        self.kind = kind
    }
}

/// The colours a recorder saved with the session: foreground, background and a palette of 8 or 16.
public struct RecordedTheme: Sendable, Equatable {
    public var foreground: TerminalRGB
    public var background: TerminalRGB
    public var palette: [TerminalRGB]

    public init(foreground: TerminalRGB, background: TerminalRGB, palette: [TerminalRGB]) {
        self.foreground = foreground
        self.background = background
        self.palette = palette
    }
}

/// An sRGB colour of 8 bits a channel, as terminals and asciicast files give them.
public struct TerminalRGB: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// "#rrggbb" (or "#rgb"), nil for anything else.
    public init?(hex: String) {
        var s = Substring(hex)
        guard s.first == "#" else { return nil }
        s = s.dropFirst()
        let digits = s.compactMap(\.hexDigitValue)
        guard digits.count == s.count else { return nil }
        switch digits.count {
        case 6:
            self.init(UInt8(digits[0] * 16 + digits[1]), UInt8(digits[2] * 16 + digits[3]), UInt8(digits[4] * 16 + digits[5]))
        case 3:
            self.init(UInt8(digits[0] * 17), UInt8(digits[1] * 17), UInt8(digits[2] * 17))
        default:
            return nil
        }
    }

    /// Entry `index` of the 256-colour palette beyond the first 16: xterm's 6 × 6 × 6 cube and its 24
    /// greys (what xterm, VTE, pyte and every recorder's player use; libvterm's own cube differs).
    public static func extended(_ index: Int) -> TerminalRGB {
        if index >= 232 {
            let v = UInt8(8 + 10 * (index - 232))
            return TerminalRGB(v, v, v)
        }
        let k = index - 16
        func level(_ n: Int) -> UInt8 { n == 0 ? 0 : UInt8(55 + 40 * n) }
        return TerminalRGB(level(k / 36), level(k / 6 % 6), level(k % 6))
    }
}
