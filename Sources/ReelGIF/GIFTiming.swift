/// GIF timing: frame i is shown at `round(i · 100 / fps)` centiseconds, so the delays alternate
/// (30 fps: 3, 4, 3, 3, 4, 3 … cs) and the average rate is exact; the last frame's delay completes the
/// clip's exact length.
public enum GIFTiming {
    /// Presentation time of frame `index` in centiseconds, rounded half up.
    public static func centiseconds(ofFrame index: Int, numerator: Int, denominator: Int) -> Int {
        (2 * index * 100 * denominator + numerator) / (2 * numerator)
    }
}
