/// Retained presentation: a scene's subtrees that nothing changes, presented once and shared by every frame.
import Synchronization

/// The identity of a still subtree's presentation (or of a whole still snapshot): unique in the process,
/// so a cache keyed by it never mixes two scenes.
public struct RetainedID: Hashable, Sendable {
    let value: Int

    private static let counter = Atomic<Int>(0)

    static func next() -> RetainedID { RetainedID(value: counter.wrappingAdd(1, ordering: .relaxed).newValue) }
}

/// A scene sampled frame after frame: its still subtrees — no animation, no timeline change, no video, no
/// per-unit text animation, in the layer or below it — are presented once, when this is made, and each
/// snapshot shares them (the arrays, not copies), marked with their `retained` identity. So a frame's
/// presentation costs what animates, not the number of layers, and the renderer keeps what it made of
/// a still subtree under that identity. `sample(at:)` gives what `Scene.sample(at:)` gives, but for the
/// `time` of a still layer, which nothing reads, and for what is under a moving layer that is not drawn
/// at that time (hidden, or at opacity 0): its sublayers and mask are left out, as the renderer would
/// skip them (a Lottie file's precomps are hidden outside their in and out points, most of the clip).
public final class RetainedPresentation: Sendable {
    public let scene: Scene
    /// Each top-level layer's node; empty when all are still (`stillLayers` holds them).
    private let roots: [Node]
    /// The top-level layers when all are still: one array for every snapshot.
    private let stillLayers: (layers: [PresentationLayer], id: RetainedID)?
    /// When some top-level layers are still and some move: the still ones' presentations at their
    /// indices (stand-ins at the others), each layer's slot among the moving (−1 for a still one), and
    /// the moving layers' indices in order. Every snapshot shares the first two.
    private let mixed: (shared: [PresentationLayer], slots: [Int32], moving: [Int], stillZPosition: Double?)?

    enum Node: Sendable {
        // Held inline, not boxed: a scene of 100,000 still layers would otherwise allocate one box each.
        case still(PresentationLayer)
        indirect case moving(sublayers: [Node], mask: Node?)

        var presentation: PresentationLayer? {
            if case .still(let p) = self { return p }
            return nil
        }
    }

    public init(_ scene: Scene) {
        self.scene = scene
        if scene.layers.allSatisfy(Self.isStill) {
            // Presented straight into the one array, with no node a layer beside it.
            stillLayers = (scene.layers.map { Self.node($0).presentation! }, RetainedID.next())
            roots = []
        } else {
            let roots = scene.layers.map(Self.node)
            self.roots = roots
            stillLayers = nil
            let moving = roots.indices.filter { roots[$0].presentation == nil }
            if moving.count < roots.count {
                let standIn = PresentationLayer(
                    name: "", type: .layer, properties: LayerProperties(), sublayers: [], instances: [], mask: nil, time: 0)
                var slots = [Int32](repeating: -1, count: roots.count)
                for (slot, i) in moving.enumerated() { slots[i] = Int32(slot) }
                let stillZ = Set(roots.compactMap { $0.presentation?.properties.zPosition })
                mixed = (roots.map { $0.presentation ?? standIn }, slots, moving, stillZ.count == 1 ? stillZ.first : nil)
                return
            }
        }
        mixed = nil
    }

    /// Snapshot at clip time `t`, as `Scene.sample(at:)`.
    public func sample(at t: Double) -> Snapshot {
        let sceneTime = t * scene.speed
        if let stillLayers { return Snapshot(time: sceneTime, layers: stillLayers.layers, retained: stillLayers.id) }
        if let mixed {
            let moving = mixed.moving.map { present(scene.layers[$0], roots[$0], at: sceneTime) }
            return Snapshot(
                time: sceneTime,
                top: PresentedLayers(
                    shared: mixed.shared, slots: mixed.slots, moving: moving, movingIndices: mixed.moving,
                    stillZPosition: mixed.stillZPosition))
        }
        return Snapshot(time: sceneTime, layers: scene.layers.indices.map { present(scene.layers[$0], roots[$0], at: sceneTime) })
    }

    /// How many layers (masks and replicated sublayers counted once) are presented once for every frame.
    public var stillLayerCount: Int {
        if let stillLayers { return stillLayers.layers.reduce(0) { $0 + Self.count($1) } }
        return roots.reduce(0) { $0 + Self.stillCount($1) }
    }

    private static func count(_ p: PresentationLayer) -> Int {
        var n = 0
        p.forEachLayer { _, _ in n += 1 }
        return n
    }

    private static func stillCount(_ node: Node) -> Int {
        switch node {
        case .still(let p): return count(p)
        case .moving(let sublayers, let mask): return sublayers.reduce(0) { $0 + stillCount($1) } + (mask.map(stillCount) ?? 0)
        }
    }

    private func present(_ layer: Layer, _ node: Node, at t: Double) -> PresentationLayer {
        switch node {
        case .still(let p):
            return p
        case .moving(let sublayers, let mask):
            return Scene.present(layer, at: t, drawnOnly: true) { i, time in
                self.present(layer.sublayers[i], sublayers[i], at: time)
            } mask: { m, time in
                // A moving layer's mask node is there whenever the layer has a mask.
                self.present(m, mask ?? Self.node(m), at: time)
            }
        }
    }

    /// Whether nothing in the layer's tree changes over time.
    static func isStill(_ layer: Layer) -> Bool {
        layer.changesNothing && layer.sublayers.allSatisfy(isStill) && (layer.mask.map(isStill) ?? true)
    }

    /// The layer's node: still, presented now from its still children's presentations, or moving.
    static func node(_ layer: Layer) -> Node {
        let sublayers = layer.sublayers.map(node)
        let mask = layer.mask.map(node)
        let childrenStill = sublayers.allSatisfy { $0.presentation != nil } && (mask.map { $0.presentation != nil } ?? true)
        guard childrenStill && layer.changesNothing else { return .moving(sublayers: sublayers, mask: mask) }
        var p = Scene.present(layer, at: 0) { i, _ in
            sublayers[i].presentation!
        } mask: { _, _ in
            mask!.presentation!
        }
        p.retained = RetainedID.next()
        return .still(p)
    }
}

extension Layer {
    /// Nothing changes this layer's own presentation over time: no animation, no timeline change, no video
    /// or terminal playing, no placement by a terminal's cells (it follows the terminal's bounds), no
    /// per-unit text animation (its sublayers are asked on their own).
    var changesNothing: Bool {
        attachedAnimations.isEmpty && modelChanges.isEmpty && type != .video && type != .terminal
            && properties.cells == nil && properties.text.unitAnimations.isEmpty
    }
}
