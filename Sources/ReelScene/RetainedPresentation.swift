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
/// `time` of a still layer, which nothing reads.
public final class RetainedPresentation: Sendable {
    public let scene: Scene
    private let roots: [Node]
    /// The top-level layers when all are still: one array for every snapshot.
    private let stillLayers: (layers: [PresentationLayer], id: RetainedID)?

    indirect enum Node: Sendable {
        case still(PresentationLayer)
        case moving(sublayers: [Node], mask: Node?)

        var presentation: PresentationLayer? {
            if case .still(let p) = self { return p }
            return nil
        }
    }

    public init(_ scene: Scene) {
        self.scene = scene
        let roots = scene.layers.map(Self.node)
        self.roots = roots
        let still = roots.compactMap(\.presentation)
        stillLayers = still.count == roots.count ? (still, RetainedID.next()) : nil
    }

    /// Snapshot at clip time `t`, as `Scene.sample(at:)`.
    public func sample(at t: Double) -> Snapshot {
        let sceneTime = t * scene.speed
        if let stillLayers { return Snapshot(time: sceneTime, layers: stillLayers.layers, retained: stillLayers.id) }
        return Snapshot(time: sceneTime, layers: scene.layers.indices.map { present(scene.layers[$0], roots[$0], at: sceneTime) })
    }

    /// How many layers (masks and replicated sublayers counted once) are presented once for every frame.
    public var stillLayerCount: Int { roots.reduce(0) { $0 + Self.stillCount($1) } }

    private static func stillCount(_ node: Node) -> Int {
        switch node {
        case .still(let p): return p.flattened().count
        case .moving(let sublayers, let mask): return sublayers.reduce(0) { $0 + stillCount($1) } + (mask.map(stillCount) ?? 0)
        }
    }

    private func present(_ layer: Layer, _ node: Node, at t: Double) -> PresentationLayer {
        switch node {
        case .still(let p):
            return p
        case .moving(let sublayers, let mask):
            return Scene.present(layer, at: t) { i, time in
                self.present(layer.sublayers[i], sublayers[i], at: time)
            } mask: { m, time in
                // A moving layer's mask node is there whenever the layer has a mask.
                self.present(m, mask ?? Self.node(m), at: time)
            }
        }
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
    /// playing, no per-unit text animation (its sublayers are asked on their own).
    var changesNothing: Bool {
        attachedAnimations.isEmpty && modelChanges.isEmpty && type != .video && properties.text.unitAnimations.isEmpty
    }
}
