/// Presentation: `sample(t)` turns the model into presentation layers, the values on screen at one time.
import ReelAnimation
import ReelGeometry

/// The presentation values of every layer at one time: what is on screen.
public struct Snapshot: Sendable {
    public var time: Double
    /// The top-level layers as an array: code run every frame reads `top` instead, which copies none.
    public var layers: [PresentationLayer] {
        get { top.array }
        set { top = PresentedLayers(newValue) }
    }
    /// The top-level layers, read in place.
    package var top: PresentedLayers
    /// Set when every layer is still (`RetainedPresentation`): the same layers at every time, under this
    /// identity, so what is made of them once can be kept.
    public var retained: RetainedID?

    public init(time: Double, layers: [PresentationLayer], retained: RetainedID? = nil) {
        self.init(time: time, top: PresentedLayers(layers), retained: retained)
    }

    init(time: Double, top: PresentedLayers, retained: RetainedID? = nil) {
        self.time = time
        self.top = top
        self.retained = retained
    }
}

/// A layer as it is on screen at one time (Core Animation's `presentation()`): the model's values with
/// the timeline's changes and the animations applied, and its sublayers' presentations. It knows no
/// animations; it is what the renderer draws.
@dynamicMemberLookup
public struct PresentationLayer: Sendable {
    public var name: String
    public var type: LayerType
    public var properties: LayerProperties
    public var sublayers: [PresentationLayer]
    /// A replicator's sublayers for each instance k, sampled at t − k·instanceDelay; empty for other layers.
    public var instances: [[PresentationLayer]]
    /// The layer time it was sampled at (a replicator instance's is earlier): a text layer's per-unit
    /// animations are evaluated at it, unit by unit.
    public var time: Double
    /// Set on a still subtree (`RetainedPresentation`): nothing changes it at any time, so it is presented
    /// once, and what is made of it (its draw commands) can be kept under this identity. Its `time` is
    /// then the time it was presented at, which nothing in a still subtree reads.
    public internal(set) var retained: RetainedID?
    private var maskStorage: [PresentationLayer]

    public var mask: PresentationLayer? { maskStorage.first }

    init(
        name: String, type: LayerType, properties: LayerProperties, sublayers: [PresentationLayer],
        instances: [[PresentationLayer]], mask: PresentationLayer?, time: Double
    ) {
        self.time = time
        self.name = name
        self.type = type
        self.properties = properties
        self.sublayers = sublayers
        self.instances = instances
        self.maskStorage = mask.map { [$0] } ?? []
    }

    /// `layer.opacity` for `layer.properties.opacity`. Code run for every layer of every frame reads
    /// `properties` itself: the optimizer copies the whole `LayerProperties` for each key-path read (the
    /// renderer's step for one layer made 32 copies and freed them, 13 % of a 100,000-layer render).
    @inlinable public subscript<Value>(dynamicMember keyPath: KeyPath<LayerProperties, Value>) -> Value {
        properties[keyPath: keyPath]
    }
}

extension Scene {
    /// Presentation values at clip time `t` (seconds from the start of the clip; scene time t·speed). Pure: the same `t`
    /// always gives the same snapshot. Animations apply in the order they are listed; a later one on
    /// the same key path replaces an earlier one's value (non-additive, CORE-ANIMATION.md §8.3).
    public func sample(at t: Double) -> Snapshot {
        let sceneTime = t * speed
        return Snapshot(time: sceneTime, layers: layers.map { Self.present($0, at: sceneTime) })
    }

    /// One layer tree's presentation at `t`, on its own (an SVG drawn as a layer's contents).
    public static func present(_ layer: Layer, at parentTime: Double) -> PresentationLayer {
        present(layer, at: parentTime) { i, t in
            present(layer.sublayers[i], at: t)
        } mask: { mask, t in
            present(mask, at: t)
        }
    }

    /// One layer's presentation at `parentTime`, its sublayer `i` presented at time t by `sublayer(i, t)`
    /// and its mask by `mask`: the step `sample` and `RetainedPresentation` share. With `drawnOnly`, a
    /// layer that is not drawn at `parentTime` (hidden, or at opacity 0: the renderer draws nothing of it,
    /// shadow and sublayers included) is presented without its sublayers and mask.
    static func present(
        _ layer: Layer, at parentTime: Double, drawnOnly: Bool = false, sublayer: (Int, Double) -> PresentationLayer,
        mask: (Layer, Double) -> PresentationLayer
    ) -> PresentationLayer {
        // The model as of t: the timeline's sets up to t applied in order.
        var presented = layer.properties
        var changed = false
        for change in layer.modelChanges where change.time <= parentTime {
            change.keyPath.set(change.value, on: &presented)
            changed = true
        }
        // Everything below runs in the layer's own time.
        let t = layer.timing?.layerTime(atParentTime: parentTime) ?? parentTime
        // In order: each animation replaces the running value, or adds to it when additive (§3.2). The
        // model is kept apart only for a layer with animations whose timeline changed it: properties are
        // large, and the layers of an imported file have none (their model is the layer's own).
        let attached = layer.attachedAnimations
        if !attached.isEmpty {
            if changed {
                let model = presented
                animate(attached, &presented, model: model, at: t)
            } else {
                animate(attached, &presented, model: layer.properties, at: t)
            }
        }
        // As the renderer tests it: a NaN opacity is not drawn either.
        if drawnOnly && (presented.hidden || !(presented.opacity > 0)) {
            return PresentationLayer(
                name: layer.name, type: layer.type, properties: presented, sublayers: [], instances: [], mask: nil, time: t)
        }
        var sublayers = layer.sublayers.indices.map { sublayer($0, t) }
        if let terminal = presented.terminal, layer.type == .terminal {
            for i in sublayers.indices where sublayers[i].properties.cells != nil {
                sublayers[i].properties.place(inCellsOf: terminal, bounds: presented.bounds)
            }
        }
        var instances: [[PresentationLayer]] = []
        if layer.type == .replicator {
            let r = presented.replicator
            instances = (0..<max(1, min(r.instanceCount, Scene.maximumInstances))).map { k in
                k == 0 || r.instanceDelay == 0
                    ? sublayers : layer.sublayers.indices.map { sublayer($0, t - Double(k) * r.instanceDelay) }
            }
        }
        return PresentationLayer(
            name: layer.name, type: layer.type, properties: presented, sublayers: sublayers, instances: instances,
            mask: layer.mask.map { mask($0, t) }, time: t)
    }

    /// The layer's animations applied in order to its presentation values at layer time `t`.
    static func animate(_ attached: [AttachedAnimation], _ presented: inout LayerProperties, at t: Double) {
        let model = presented
        animate(attached, &presented, model: model, at: t)
    }

    /// The same, with the model values the animations start from given (they equal `presented`'s).
    static func animate(
        _ attached: [AttachedAnimation], _ presented: inout LayerProperties, model: LayerProperties, at t: Double
    ) {
        // Pop springs' starting states (each from the one it retargets); most layers have none, and then
        // nothing is worked out (an imported file's hundreds of animated layers, every frame).
        var springStarts: [Int: PopSpring.State] = [:]
        if attached.contains(where: \.animation.isPopSpring) {
            var removals: [Int: Double] = [:]
            for (i, a) in attached.enumerated() { removals[i] = a.removalTime }
            springStarts = Animation.popSpringStarts(attached.map(\.animation), removals: removals) {
                AnimatedKeyPath(rawValue: $0)?.get(model)
            }
        }
        func apply(_ animation: Animation, at time: Double, springStart: PopSpring.State?) {
            guard let keyPath = AnimatedKeyPath(rawValue: animation.keyPath) else { return }
            let v = animation.apply(
                at: time, model: keyPath.get(model), running: keyPath.get(presented), springStart: springStart)
            keyPath.set(v, on: &presented)
        }
        for (i, a) in attached.enumerated() where a.isApplied(at: t) {
            if case .group(let group) = a.animation {
                // The children, in order, in the group's (warped) time.
                if let childTime = group.childTime(at: t) {
                    for child in group.animations { apply(child, at: childTime, springStart: nil) }
                }
            } else {
                apply(a.animation, at: t, springStart: springStarts[i])
                // rotationMode: the tangent's rotation on top of the transform, about the anchor point.
                if case .keyframe(let k) = a.animation, let theta = k.rotation(at: t) {
                    presented.transform = presented.transform.concatenating(.rotation(theta))
                }
            }
        }
    }
}

/// What model and presentation layers share as trees, so that one lookup serves both.
public protocol LayerTree {
    var name: String { get }
    var sublayers: [Self] { get }
    var mask: Self? { get }
}

extension Layer: LayerTree {}
extension PresentationLayer: LayerTree {}

extension LayerTree {
    /// This layer or the first descendant (sublayers, then mask) with the name.
    public func find(_ name: String) -> Self? {
        if self.name == name { return self }
        for s in sublayers { if let found = s.find(name) { return found } }
        return mask?.find(name)
    }

    /// Calls `body` with every layer of the tree, depth first (sublayers, then mask), with its depth.
    /// Unlike `flattened()` it makes no array of copies: a scene of 100,000 layers is read in place.
    @inlinable public func forEachLayer(depth: Int = 0, _ body: (Self, Int) throws -> Void) rethrows {
        try body(self, depth)
        let sublayers = self.sublayers
        for i in sublayers.indices { try sublayers[i].forEachLayer(depth: depth + 1, body) }
        if let mask { try mask.forEachLayer(depth: depth + 1, body) }
    }

    /// Every layer of the tree, depth first, with its depth.
    public func flattened(depth: Int = 0) -> [(layer: Self, depth: Int)] {
        var out: [(layer: Self, depth: Int)] = []
        appendFlattened(depth: depth, to: &out)
        return out
    }

    /// One array for the whole tree: each layer is copied once, however deep (an imported SVG's
    /// `use` fan-out makes trees of 100,000 layers 20 deep).
    private func appendFlattened(depth: Int, to out: inout [(layer: Self, depth: Int)]) {
        out.append((self, depth))
        for s in sublayers { s.appendFlattened(depth: depth + 1, to: &out) }
        mask?.appendFlattened(depth: depth + 1, to: &out)
    }
}

extension Array where Element: LayerTree {
    /// `forEachLayer` over each tree in turn.
    @inlinable public func forEachLayer(_ body: (Element, Int) throws -> Void) rethrows {
        for i in indices { try self[i].forEachLayer(depth: 0, body) }
    }

    public func find(_ name: String) -> Element? {
        for l in self { if let found = l.find(name) { return found } }
        return nil
    }
}

extension Array where Element == Layer {
    /// Changes the first layer of the trees with that name in place (no copy of its animation lists,
    /// so a timeline of n actions on one layer costs O(n), not O(n²)); false when there is none.
    @discardableResult
    public mutating func modify(named name: String, _ body: (inout Layer) throws(TimelineError) -> Void) throws(TimelineError)
        -> Bool
    {
        for i in indices {
            if self[i].name == name {
                try body(&self[i])
                return true
            }
            if try self[i].sublayers.modify(named: name, body) { return true }
            if self[i].mask != nil {
                var wrapped = [self[i].mask!]
                self[i].mask = nil
                let found = try wrapped.modify(named: name, body)
                self[i].mask = wrapped[0]
                if found { return true }
            }
        }
        return false
    }

    /// Replaces the first layer of the trees with that name.
    @discardableResult
    public mutating func replace(named name: String, with layer: Layer) -> Bool {
        for i in indices {
            if self[i].name == name {
                self[i] = layer
                return true
            }
            if self[i].sublayers.replace(named: name, with: layer) { return true }
            if var m = self[i].mask, [m].find(name) != nil {
                var wrapped = [m]
                wrapped.replace(named: name, with: layer)
                m = wrapped[0]
                self[i].mask = m
                return true
            }
        }
        return false
    }
}

extension Scene {
    /// The first replicator (depth first) under which more than `limit` layers could be drawn in one
    /// frame — instance counts multiply down the tree, and an animated `instanceCount` counts at its
    /// largest — with that count; nil when the scene stays within it.
    public func replicationBeyond(_ limit: Int) -> (layer: String, count: Double)? {
        drawnLayers(limit: limit).first
    }

    /// The most layers one frame can draw, replicated instances counted as `replicationBeyond` counts them.
    public var drawnLayerBound: Double { drawnLayers(limit: .max).total }

    private func drawnLayers(limit: Int) -> (total: Double, first: (layer: String, count: Double)?) {
        var found: (String, Double)?
        func drawn(_ layer: Layer) -> Double {
            var inner = 0.0
            for s in layer.sublayers { inner += drawn(s) }
            if layer.type == .replicator {
                inner *= Double(Self.peakInstanceCount(layer))
                if inner > Double(limit) && found == nil { found = (layer.name, inner) }
            }
            return 1 + inner + (layer.mask.map(drawn) ?? 0)
        }
        let total = layers.reduce(0.0) { $0 + drawn($1) }
        return (total, found)
    }

    /// The most instances a replicator can show: its model value, and every value an animation of
    /// `instanceCount` names (a spring counted at twice its target, for its overshoot), capped as drawn.
    static func peakInstanceCount(_ layer: Layer) -> Int {
        var peak = Double(layer.replicator.instanceCount)
        func number(_ v: AnimatableValue?) -> Double {
            if case .number(let x)? = v { return x }
            return 0
        }
        func visit(_ a: Animation) {
            switch a {
            case .basic(let b) where b.keyPath == "instanceCount":
                peak = max(
                    peak, number(b.fromValue), number(b.toValue), Double(layer.replicator.instanceCount) + abs(number(b.byValue)))
            case .keyframe(let k) where k.keyPath == "instanceCount":
                for v in k.values { peak = max(peak, number(v)) }
            case .spring(let s) where s.base.keyPath == "instanceCount":
                peak = max(peak, number(s.base.fromValue), 2 * number(s.base.toValue))
            case .popSpring(let s) where s.keyPath == "instanceCount":
                peak = max(peak, number(s.fromValue), 2 * number(s.toValue))
            case .group(let g):
                for c in g.animations { visit(c) }
            default:
                break
            }
        }
        for a in layer.animations { visit(a) }
        for change in layer.modelChanges where change.keyPath.rawValue == "instanceCount" {
            peak = max(peak, number(change.value))
        }
        return Int(min(max(peak, 1), Double(maximumInstances)))
    }
}
