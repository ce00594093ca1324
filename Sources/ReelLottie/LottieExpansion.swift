/// How many layers and shape items a Lottie file builds once its precomps expand, counted on the JSON
/// before anything is built: every instance of a precomp builds its composition's layers again, so a
/// few kilobytes whose precomps hold instances of precomps ask for 1e8 layers.
import ReelDocument

struct LottieExpansion {
    let assets: [String: LottieAsset]
    /// Layers and shape items of a composition's own layers (precomps not expanded), by asset id.
    private var own: [String: Int] = [:]
    /// The same with its precomps expanded, by asset id and the depth it is built at.
    private var expanded: [Key: Int] = [:]

    private struct Key: Hashable {
        var id: String
        var depth: Int
    }

    init(assets: [String: LottieAsset]) { self.assets = assets }

    /// Refuses a file whose layers and shape items, precomps expanded, pass `LottieLimits.maximumItems`,
    /// naming the top-level layer that makes the most of them. A composition's own items are counted
    /// once, its precomps once for each depth it is built at (the import stops at
    /// `LottieLimits.maximumDepth`), so the count takes time in proportion to the file whatever it
    /// expands to; sums saturate at `Int.max`.
    static func check(
        _ animation: LottieAnimation, assets: [String: LottieAsset], file: String, limit: Int = LottieLimits.maximumItems
    ) throws(DocumentError) {
        var counter = LottieExpansion(assets: assets)
        let layers = animation.layers ?? []
        var total = 0, expanding = 0
        var largest: (index: Int, items: Int)?
        for (i, layer) in layers.enumerated() {
            let items = counter.items(of: layer, depth: 0)
            total = sum(total, items)
            expanding = sum(expanding, counter.precomp(layer, depth: 0))
            if items > largest?.items ?? -1 { largest = (i, items) }
        }
        guard total > limit else { return }
        let location = animation.keyLocations["layers"] ?? animation.location
        guard expanding > 0 else {
            throw DocumentError(
                file: file, location: location, path: "layers",
                message: "the file holds \(total) layers and shape items, above the limit of \(limit)",
                fix: "split the animation into smaller files")
        }
        var message = "its precomps expand to \(written(total)) layers and shape items, above the limit of \(limit)"
        var path = "layers", place = location
        if let (i, items) = largest, let id = layers[i].referenceID, counter.precomp(layers[i], depth: 0) > 0 {
            path = "layers[\(i)]"
            place = layers[i].location
            message += " (this layer, an instance of precomp \"\(id)\", makes \(written(items)) of them)"
        }
        throw DocumentError(
            file: file, location: place, path: path, message: message,
            fix: "use fewer instances of precomps inside precomps (each builds its composition's layers again)")
    }

    /// One layer: itself, its shape items, and what its precomp builds one level deeper.
    mutating func items(of layer: LottieLayer, depth: Int) -> Int {
        Self.sum(1 + Self.shapeItems(layer.shapes, depth: 0), precomp(layer, depth: depth))
    }

    /// What a precomp layer's composition builds (nothing for another layer, or a hidden one, whose
    /// content the import does not build).
    mutating func precomp(_ layer: LottieLayer, depth: Int) -> Int {
        guard layer.type == 0, !layer.hidden, let id = layer.referenceID else { return 0 }
        return composition(id, depth: depth + 1)
    }

    /// A precomp asset's layers built at `depth`: none at the import's depth limit or for a missing asset.
    mutating func composition(_ id: String, depth: Int) -> Int {
        guard depth < LottieLimits.maximumDepth, let layers = assets[id]?.layers else { return 0 }
        if let known = expanded[Key(id: id, depth: depth)] { return known }
        if own[id] == nil {
            own[id] = layers.reduce(0) { Self.sum($0, 1 + Self.shapeItems($1.shapes, depth: 0)) }
        }
        var n = own[id] ?? 0
        for layer in layers { n = Self.sum(n, precomp(layer, depth: depth)) }
        expanded[Key(id: id, depth: depth)] = n
        return n
    }

    /// Shape items, the groups' items within them, as deep as the import reads groups.
    static func shapeItems(_ items: [LottieShapeItem], depth: Int) -> Int {
        guard depth < LottieLimits.maximumDepth else { return 0 }
        var n = 0
        for item in items {
            n += 1
            if case .group(let children) = item.content { n = sum(n, shapeItems(children, depth: depth + 1)) }
        }
        return n
    }

    static func sum(_ a: Int, _ b: Int) -> Int {
        let (s, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : s
    }

    static func written(_ n: Int) -> String { n == .max ? "more than \(Int.max)" : "\(n)" }
}
