/// What a Lottie file uses and what Reel draws of it, for `reel info`.
import ReelLottie

extension Reel {
    /// The census of the file at `path` when it is a Lottie animation (told by its content, or a dotLottie
    /// archive's `animation`, or a sticker's), else nil.
    public static func lottieCensus(_ path: String, animation: String? = nil) -> LottieCensus? {
        if let document = try? lottieContainer(path, animation: animation) { return LottieCensus.of(document.root) }
        return jsonRoot(path).flatMap(LottieCensus.of)
    }

    /// The slots of the Lottie animation at `path` (alone or in a container), with their kinds and defaults.
    public static func lottieSlots(_ path: String, animation: String? = nil) -> [LottieSlots.Slot] {
        if let document = try? lottieContainer(path, animation: animation) {
            return LottieSlots.declared(in: document.root)
        }
        guard let root = jsonRoot(path), LottieImport.looksLikeLottie(root) else { return [] }
        return LottieSlots.declared(in: root)
    }

    /// A dotLottie archive as read for `animation` and `theme`: its animations and themes (the manifest's
    /// ids) and those shown; nil for any other file.
    public static func dotLottie(_ path: String, animation: String? = nil, theme: String? = nil) -> LottieDocument? {
        guard let document = try? lottieContainer(path, animation: animation, theme: theme), document.animationID != nil
        else { return nil }
        return document
    }
}
