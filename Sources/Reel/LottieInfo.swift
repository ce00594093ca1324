/// What a Lottie file uses and what Reel draws of it, for `reel info`.
import ReelLottie

extension Reel {
    /// The census of the file at `path` when it is a Lottie animation (told by its content), else nil.
    public static func lottieCensus(_ path: String) -> LottieCensus? {
        jsonRoot(path).flatMap(LottieCensus.of)
    }
}
