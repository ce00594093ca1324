/// Per-unit animation of text layers: each line, word or glyph cluster animated as if it were its own
/// sublayer, staggered in an order; a unit's values at a time, evaluated once per distinct delayed time.
import ReelAnimation
import ReelGeometry

/// What a text layer's per-unit animations move.
public enum TextUnit: String, Sendable, CaseIterable {
    case line, word, cluster
}

/// The order units start in.
public enum StaggerOrder: String, Sendable, CaseIterable {
    case forward, backward, centerOut, random
}

/// Animations applied to each unit of a text layer as if the unit were a sublayer (its anchor point at
/// the centre of its box), unit k starting `stagger`·rank(k) seconds later.
public struct UnitAnimation: Sendable {
    /// The key paths a unit has: its opacity, its transform (and `transform.*`), its colour.
    public static let keyPaths: [LayerKeyPath] = [
        .opacity, .transform, .transformScale, .transformScaleX, .transformScaleY, .transformScaleZ, .transformRotation,
        .transformRotationZ, .transformRotationX, .transformRotationY, .transformTranslation, .transformTranslationX,
        .transformTranslationY, .transformTranslationZ, .foregroundColor, .strokeEnd,
    ]
    public var unit: TextUnit
    public var stagger: Double
    public var order: StaggerOrder
    /// For `random`: the same seed gives the same order on every machine and run.
    public var seed: UInt64
    public var animations: [Animation]

    public init(
        unit: TextUnit, stagger: Double = 0, order: StaggerOrder = .forward, seed: UInt64 = 0, animations: [Animation]
    ) {
        self.unit = unit
        self.stagger = stagger
        self.order = order
        self.seed = seed
        self.animations = animations
    }

    /// The rank of unit `k` of `n` in start order (0 starts first).
    public func rank(of k: Int, count n: Int) -> Int {
        switch order {
        case .forward: return k
        case .backward: return n - 1 - k
        case .centerOut:
            // Distance from the middle; for an even count the two middle units start together.
            let middle = Double(n - 1) / 2
            return Int((abs(Double(k) - middle)).rounded(.down))
        case .random:
            return Self.shuffled(count: n, seed: seed)[k]
        }
    }

    /// A permutation of 0..<n from the seed (SplitMix64 driving Fisher–Yates): rank of each unit.
    static func shuffled(count n: Int, seed: UInt64) -> [Int] {
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var order = Array(0..<n)
        if n > 1 {
            for i in stride(from: n - 1, to: 0, by: -1) {
                let j = Int(next() % UInt64(i + 1))
                order.swapAt(i, j)
            }
        }
        // order[r] is the unit that starts r-th; invert it to get each unit's rank.
        var rank = Array(repeating: 0, count: n)
        for (r, unit) in order.enumerated() { rank[unit] = r }
        return rank
    }
}

/// One unit's values at a time: what its animations make of opacity 1, the identity and the layer's
/// colour.
public struct UnitPresentation: Sendable, Equatable {
    public var opacity: Double = 1
    public var transform: Transform3D = .identity
    /// Nil unless an animation sets it (the runs' own colours stay).
    public var foregroundColor: Color?
    /// `strokeEnd` on a unit: how much of its box is shown, from its reading start (a wipe), 0…1.
    public var reveal: Double = 1

    public init() {}
}

extension TextProperties {
    /// Unit `k` (of `n` units of `unit`) at layer time `t`: every unit animation of that unit kind, in
    /// order, each in its own time shifted by the unit's delay.
    public func presentation(of unit: TextUnit, _ k: Int, count n: Int, at t: Double) -> UnitPresentation {
        let groups = unitAnimations.filter { $0.unit == unit }
        return Self.evaluate(groups, locals: groups.map { t - $0.stagger * Double($0.rank(of: k, count: n)) }, foregroundColor)
    }

    /// Every unit of a kind at layer time `t`. Units whose delayed times all fall before their
    /// animations begin (or after they end) share one value, so a long text evaluates only the units
    /// that are moving, and each rank is drawn once (a random order is one shuffle, not one per unit).
    public func presentations(of unit: TextUnit, count n: Int, at t: Double) -> [UnitPresentation] {
        let groups = unitAnimations.filter { $0.unit == unit }
        let ranks = groups.map { g -> [Int] in g.order == .random ? UnitAnimation.shuffled(count: n, seed: g.seed) : [] }
        let windows = groups.map(\.window)
        var memo: [[Double]: UnitPresentation] = [:]
        return (0..<n).map { k in
            let locals = groups.indices.map { i -> Double in
                let g = groups[i]
                let rank = g.order == .random ? ranks[i][k] : g.rank(of: k, count: n)
                let local = t - g.stagger * Double(rank)
                // Outside its window an animation's value does not change with time: one key for all.
                let (lo, hi) = windows[i]
                return local < lo ? lo - 1 : local > hi ? hi + 1 : local
            }
            if let known = memo[locals] { return known }
            let p = Self.evaluate(groups, locals: locals, foregroundColor)
            memo[locals] = p
            return p
        }
    }

    /// The groups' animations applied in order, each group at its local time, to a unit's own values
    /// (opacity 1, the identity, the layer's colour, fully revealed).
    static func evaluate(_ groups: [UnitAnimation], locals: [Double], _ color: Color) -> UnitPresentation {
        var values = UnitValues(foregroundColor: color)
        let model = values
        var changedColor = false
        func apply(_ animation: Animation, at time: Double) {
            if case .group(let g) = animation {
                if let child = g.childTime(at: time) { for a in g.animations { apply(a, at: child) } }
                return
            }
            guard let keyPath = LayerKeyPath(rawValue: animation.keyPath) else { return }
            let v = animation.apply(at: time, model: model.get(keyPath), running: values.get(keyPath), springStart: nil)
            values.set(keyPath, v)
            // Only while it applies (active, or filling): otherwise the runs keep their own colours.
            if keyPath == .foregroundColor, animation.value(at: time, model: model.get(keyPath)) != nil {
                changedColor = true
            }
        }
        for (group, local) in zip(groups, locals) {
            for animation in group.animations { apply(animation, at: local) }
        }
        var p = UnitPresentation()
        p.opacity = values.opacity
        p.transform = values.transform
        p.foregroundColor = changedColor ? values.foregroundColor : nil
        p.reveal = min(max(values.strokeEnd, 0), 1)
        return p
    }
}

/// What a unit has to animate, read and written by key path as a layer's properties are (a small
/// value, not a whole `LayerProperties` copied for every unit of every frame).
struct UnitValues {
    var opacity = 1.0
    var transform = Transform3D.identity
    var foregroundColor: Color
    var strokeEnd = 1.0

    func get(_ keyPath: LayerKeyPath) -> AnimatableValue {
        if let component = keyPath.transformComponent { return component.get(transform) }
        switch keyPath {
        case .opacity: return .number(opacity)
        case .transform: return .transform(transform)
        case .foregroundColor: return .color(foregroundColor)
        case .strokeEnd: return .number(strokeEnd)
        default: return .number(0)  // not a unit's (the decoder refuses it)
        }
    }

    mutating func set(_ keyPath: LayerKeyPath, _ value: AnimatableValue) {
        if let component = keyPath.transformComponent {
            transform = component.set(value, in: transform)
            return
        }
        switch (keyPath, value) {
        case (.opacity, .number(let v)): opacity = v
        case (.transform, .transform(let t)): transform = t
        case (.foregroundColor, .color(let c)): foregroundColor = c
        case (.strokeEnd, .number(let v)): strokeEnd = v
        default: break
        }
    }
}

extension UnitAnimation {
    /// From the earliest begin to the latest end of its animations (parent time): outside it nothing
    /// they give changes with time. A Pop spring's end is not searched for here (+∞: never shared).
    var window: (Double, Double) {
        var lo = Double.infinity, hi = -Double.infinity
        for a in animations {
            switch a {
            case .basic(let b): lo = min(lo, b.timing.beginTime)
            case .keyframe(let k): lo = min(lo, k.timing.beginTime)
            case .spring(let s): lo = min(lo, s.base.timing.beginTime)
            case .group(let g): lo = min(lo, g.timing.beginTime)
            case .popSpring(let p): lo = min(lo, p.beginTime)
            }
            if case .popSpring = a { hi = .infinity } else { hi = max(hi, a.endTime(model: nil)) }
        }
        return animations.isEmpty ? (-Double.infinity, Double.infinity) : (lo, hi)
    }
}
