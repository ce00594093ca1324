/// A scene's captions: timed cues (from an SRT or WebVTT file, or written inline) and the style they are
/// drawn in; the renderer's loader turns them into text layers over the scene.
import ReelDocument
import ReelGeometry

/// Captions over the whole clip (`captions: {file: "voice.srt", fontSize: 22, …}`).
public struct Captions: Sendable {
    public enum Placement: Sendable, Equatable {
        case bottom
        case top
        /// The box's centre, in the scene's points.
        case point(Point)
    }

    public var cues: [SubtitleCue]
    /// The subtitle file they came from, resolved (nil for inline cues).
    public var file: String?
    public var font = "Inter"
    public var fontSize = 22.0
    public var color = Color.white
    /// The box behind each cue; nil for none.
    public var background: Color? = Color(red: 0, green: 0, blue: 0, alpha: 0.7)
    /// Points between the text and the box's edges.
    public var padding = 10.0
    public var cornerRadius = 8.0
    public var placement = Placement.bottom
    /// Points between the box and the canvas's edge (for `bottom` and `top`).
    public var margin = 24.0
    /// The widest a line may be before it wraps, in points; nil: 80 % of the canvas.
    public var maxWidth: Double?
    /// When each word is said (a speech-to-text tool's timestamps): the word being said is drawn in
    /// `highlightColor`.
    public var words: [TimedWord] = []
    public var highlightColor = Color(red: 1, green: 0.84, blue: 0.04)
    /// Also written as a soft subtitle track (MP4, MOV, WebM), which players can turn on and off.
    public var track = false

    public init(cues: [SubtitleCue]) { self.cues = cues }
}
