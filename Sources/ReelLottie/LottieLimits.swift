/// The limits a Lottie import keeps to, however large or deeply nested the file.

/// Frames to key between two frame numbers, held to `LottieLimits.maximumSampledFrames` (computed in
/// floating point first: a span of 1e300 frames must not trap converting to Int).
func sampleCount(from first: Double, to last: Double) -> Int {
    let span = (last - first).rounded(.up)
    guard span.isFinite, span > 0 else { return 1 }
    return Int(min(span, Double(LottieLimits.maximumSampledFrames)))
}

public enum LottieLimits {
    /// Layers and shape items a file may build in all, every instance of a precomp counting its
    /// composition's again: a file past it is refused before anything is built (`LottieExpansion`);
    /// repeaters' copies, made during the import, are left out past it with a note.
    public static let maximumItems = 200_000
    /// How deep precomps and groups nest.
    public static let maximumDepth = 64
    /// Frames a property is sampled at when its keyframes do not map onto Core Animation's.
    public static let maximumSampledFrames = 100_000
    /// Copies one repeater makes; every copy's layers also count toward `maximumItems`.
    public static let maximumCopies = 1_000
}
