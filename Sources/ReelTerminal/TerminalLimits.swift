/// The limits a terminal recording is read and played within: each refusal names the one it met.
public enum TerminalLimits {
    /// A recording file's bytes: hours of a busy session are a few MiB.
    public static let maximumRecordingBytes = 64 << 20
    /// Events in one recording (output, resizes, markers, input).
    public static let maximumEvents = 2_000_000
    /// A terminal's width and height in cells, and its cells in all: a screen is read cell by cell for
    /// each frame that changes it.
    public static let maximumColumns = 1_000
    public static let maximumRows = 500
    public static let maximumCells = 250_000
    /// The latest time an event may have, in seconds (100 hours).
    public static let maximumTime = 360_000.0
    /// Characters kept in a marker's label or a title.
    public static let maximumLabel = 1_000
}
