/// The animatable key paths of a layer, and one table of how each reads and writes layer properties.
import ReelAnimation
import ReelGeometry

/// The animatable key paths of a layer, with their value types, as Core Animation spells them.
public enum LayerKeyPath: String, Sendable, CaseIterable {
    case position
    case positionX = "position.x"
    case positionY = "position.y"
    case bounds
    case boundsSize = "bounds.size"
    case boundsWidth = "bounds.size.width"
    case boundsHeight = "bounds.size.height"
    case anchorPoint
    case transform
    case sublayerTransform
    case zPosition
    case transformScale = "transform.scale"
    case transformScaleX = "transform.scale.x"
    case transformScaleY = "transform.scale.y"
    case transformScaleZ = "transform.scale.z"
    case transformRotation = "transform.rotation"
    case transformRotationX = "transform.rotation.x"
    case transformRotationY = "transform.rotation.y"
    case transformRotationZ = "transform.rotation.z"
    case transformTranslation = "transform.translation"
    case transformTranslationX = "transform.translation.x"
    case transformTranslationY = "transform.translation.y"
    case transformTranslationZ = "transform.translation.z"
    case opacity
    case hidden
    case backgroundColor
    case cornerRadius
    case borderWidth
    case borderColor
    case shadowColor
    case shadowOpacity
    case shadowOffset
    case shadowRadius
    case fillColor
    case strokeColor
    case lineWidth
    case miterLimit
    case lineDashPhase
    case strokeStart
    case strokeEnd
    case startPoint
    case endPoint
    case path
    case colors
    case locations
    case instanceCount
    case instanceDelay
    case instanceTransform
    case instanceColor
    case string
    case fontSize
    case foregroundColor
    case letterSpacing
    case wordSpacing
    /// Where a text layer's text starts along its path.
    case pathOffset
    /// A video layer's sound level (what AVPlayer's `volume` is).
    case volume
    /// Where a terminal's sublayer lies in its grid: [column, row, columns, rows].
    case cells
    /// An imported shape's gradient ramp (SVG and Lottie gradients; scenes have none to animate).
    case fillGradientColors = "fillGradient.colors"
    case fillGradientLocations = "fillGradient.locations"
    case strokeGradientColors = "strokeGradient.colors"
    case strokeGradientLocations = "strokeGradient.locations"
    /// Where the gradient's own space lies in the layer's (its start, end and radius, moved together).
    case fillGradientTransform = "fillGradient.transform"
    case strokeGradientTransform = "strokeGradient.transform"

    public enum ValueType: String, Sendable {
        case number, point, size, rect, color, transform, path, colors, numbers, bool, string
    }

    /// The type of the key path's values (what a scene file's value is read as).
    public var valueType: ValueType { entry.valueType }

    public func get(_ values: LayerProperties) -> AnimatableValue { entry.get(values) }

    /// Sets the value; a value of the wrong type is ignored (the decoder checks types up front).
    public func set(_ value: AnimatableValue, on values: inout LayerProperties) { entry.set(value, on: &values) }

    /// A `transform.*` key path's component of the transform.
    var transformComponent: TransformComponent? {
        if case .component(let c) = entry { return c }
        return nil
    }

    /// The table: one entry per key path, how its value is read from a layer's properties and written
    /// to them; the entry's case is the value's type. The closures capture nothing, so an entry costs no
    /// allocation (one is looked up for every animated value of every frame).
    var entry: KeyPathEntry {
        switch self {
        case .position: .point({ $0.position }, { $0.position = $1 })
        case .positionX: .number({ $0.position.x }, { $0.position.x = $1 })
        case .positionY: .number({ $0.position.y }, { $0.position.y = $1 })
        case .bounds: .rect({ $0.bounds }, { $0.bounds = $1 })
        case .boundsSize: .size({ $0.bounds.size }, { $0.bounds.size = $1 })
        case .boundsWidth: .number({ $0.bounds.size.width }, { $0.bounds.size.width = $1 })
        case .boundsHeight: .number({ $0.bounds.size.height }, { $0.bounds.size.height = $1 })
        case .anchorPoint: .point({ $0.anchorPoint }, { $0.anchorPoint = $1 })
        case .transform: .transform({ $0.transform }, { $0.transform = $1 })
        case .sublayerTransform: .transform({ $0.sublayerTransform }, { $0.sublayerTransform = $1 })
        case .zPosition: .number({ $0.zPosition }, { $0.zPosition = $1 })
        case .transformScale: .component(.scale)
        case .transformScaleX: .component(.scaleX)
        case .transformScaleY: .component(.scaleY)
        case .transformScaleZ: .component(.scaleZ)
        case .transformRotation, .transformRotationZ: .component(.rotationZ)
        case .transformRotationX: .component(.rotationX)
        case .transformRotationY: .component(.rotationY)
        case .transformTranslation: .component(.translation)
        case .transformTranslationX: .component(.translationX)
        case .transformTranslationY: .component(.translationY)
        case .transformTranslationZ: .component(.translationZ)
        case .opacity: .number({ $0.opacity }, { $0.opacity = $1 })
        case .hidden: .bool({ $0.hidden }, { $0.hidden = $1 })
        case .backgroundColor: .color({ $0.backgroundColor ?? .clear }, { $0.backgroundColor = $1 })
        case .cornerRadius: .number({ $0.cornerRadius }, { $0.cornerRadius = $1 })
        case .borderWidth: .number({ $0.borderWidth }, { $0.borderWidth = $1 })
        case .borderColor: .color({ $0.borderColor }, { $0.borderColor = $1 })
        case .shadowColor: .color({ $0.shadowColor }, { $0.shadowColor = $1 })
        case .shadowOpacity: .number({ $0.shadowOpacity }, { $0.shadowOpacity = $1 })
        case .shadowOffset: .point({ $0.shadowOffset }, { $0.shadowOffset = $1 })
        case .shadowRadius: .number({ $0.shadowRadius }, { $0.shadowRadius = $1 })
        case .fillColor: .color({ $0.shape.fillColor ?? .clear }, { $0.shape.fillColor = $1 })
        case .strokeColor: .color({ $0.shape.strokeColor ?? .clear }, { $0.shape.strokeColor = $1 })
        case .lineWidth: .number({ $0.shape.stroke.lineWidth }, { $0.shape.stroke.lineWidth = $1 })
        case .miterLimit: .number({ $0.shape.stroke.miterLimit }, { $0.shape.stroke.miterLimit = $1 })
        case .lineDashPhase: .number({ $0.shape.stroke.lineDashPhase }, { $0.shape.stroke.lineDashPhase = $1 })
        case .strokeStart: .number({ $0.shape.stroke.strokeStart }, { $0.shape.stroke.strokeStart = $1 })
        case .strokeEnd: .number({ $0.shape.stroke.strokeEnd }, { $0.shape.stroke.strokeEnd = $1 })
        case .startPoint: .point({ $0.gradient.startPoint }, { $0.gradient.startPoint = $1 })
        case .endPoint: .point({ $0.gradient.endPoint }, { $0.gradient.endPoint = $1 })
        case .path: .path({ $0.shape.path }, { $0.shape.path = $1 })
        case .colors: .colors({ $0.gradient.colors }, { $0.gradient.colors = $1 })
        case .locations:
            .numbers(
                {
                    let n = $0.gradient.colors.count
                    return $0.gradient.locations ?? (0..<n).map { n > 1 ? Double($0) / Double(n - 1) : 0 }
                }, { $0.gradient.locations = $1 })
        case .instanceCount:
            .number(
                { Double($0.replicator.instanceCount) },
                { $0.replicator.instanceCount = Int(max(0, min($1, Double(Scene.maximumInstances))).rounded(.down)) })
        case .instanceDelay: .number({ $0.replicator.instanceDelay }, { $0.replicator.instanceDelay = $1 })
        case .instanceTransform: .transform({ $0.replicator.instanceTransform }, { $0.replicator.instanceTransform = $1 })
        case .instanceColor: .color({ $0.replicator.instanceColor }, { $0.replicator.instanceColor = $1 })
        case .string: .string({ $0.text.string }, { $0.text.string = $1 })
        case .fontSize: .number({ $0.text.fontSize }, { $0.text.fontSize = min(max(0, $1), TextProperties.maximumFontSize) })
        case .foregroundColor: .color({ $0.text.foregroundColor }, { $0.text.foregroundColor = $1 })
        case .letterSpacing: .number({ $0.text.letterSpacing }, { $0.text.letterSpacing = $1 })
        case .wordSpacing: .number({ $0.text.wordSpacing }, { $0.text.wordSpacing = $1 })
        case .pathOffset: .number({ $0.text.pathOffset }, { $0.text.pathOffset = $1 })
        case .cells: .rect({ $0.cells ?? .zero }, { $0.cells = $1 })
        case .volume: .number({ $0.video?.volume ?? 1 }, { $0.video?.volume = $1 })
        case .fillGradientTransform:
            .transform(
                { Transform3D($0.shape.fillGradient?.transform ?? .identity) }, { $0.shape.fillGradient?.transform = $1.affine })
        case .strokeGradientTransform:
            .transform(
                { Transform3D($0.shape.strokeGradient?.transform ?? .identity) },
                { $0.shape.strokeGradient?.transform = $1.affine })
        // A ramp keeps its stop count: a value of another length is ignored.
        case .fillGradientColors:
            .colors(
                { $0.shape.fillGradient?.colors ?? [] },
                { if $1.count == $0.shape.fillGradient?.colors.count { $0.shape.fillGradient?.colors = $1 } })
        case .fillGradientLocations:
            .numbers(
                { $0.shape.fillGradient?.locations ?? [] },
                { if $1.count == $0.shape.fillGradient?.locations.count { $0.shape.fillGradient?.locations = $1 } })
        case .strokeGradientColors:
            .colors(
                { $0.shape.strokeGradient?.colors ?? [] },
                { if $1.count == $0.shape.strokeGradient?.colors.count { $0.shape.strokeGradient?.colors = $1 } })
        case .strokeGradientLocations:
            .numbers(
                { $0.shape.strokeGradient?.locations ?? [] },
                { if $1.count == $0.shape.strokeGradient?.locations.count { $0.shape.strokeGradient?.locations = $1 } })
        }
    }
}

/// How one key path reads and writes a layer's properties, by the type of its values: a getter and a
/// setter of that type, or a component of the transform.
enum KeyPathEntry: Sendable {
    typealias Getter<T> = @Sendable (LayerProperties) -> T
    typealias Setter<T> = @Sendable (inout LayerProperties, T) -> Void

    case number(Getter<Double>, Setter<Double>)
    case point(Getter<Point>, Setter<Point>)
    case size(Getter<Size>, Setter<Size>)
    case rect(Getter<Rect>, Setter<Rect>)
    case color(Getter<Color>, Setter<Color>)
    case transform(Getter<Transform3D>, Setter<Transform3D>)
    case path(Getter<Path>, Setter<Path>)
    case colors(Getter<[Color]>, Setter<[Color]>)
    case numbers(Getter<[Double]>, Setter<[Double]>)
    case bool(Getter<Bool>, Setter<Bool>)
    case string(Getter<String>, Setter<String>)
    /// A `transform.*` key path: read by decomposing the transform, set by recomposing it.
    case component(TransformComponent)

    var valueType: LayerKeyPath.ValueType {
        switch self {
        case .number: .number
        case .point: .point
        case .size: .size
        case .rect: .rect
        case .color: .color
        case .transform: .transform
        case .path: .path
        case .colors: .colors
        case .numbers: .numbers
        case .bool: .bool
        case .string: .string
        case .component(let c): c == .translation ? .size : .number
        }
    }

    func get(_ values: LayerProperties) -> AnimatableValue {
        switch self {
        case .number(let get, _): .number(get(values))
        case .point(let get, _): .point(get(values))
        case .size(let get, _): .size(get(values))
        case .rect(let get, _): .rect(get(values))
        case .color(let get, _): .color(get(values))
        case .transform(let get, _): .transform(get(values))
        case .path(let get, _): .path(get(values))
        case .colors(let get, _): .colors(get(values))
        case .numbers(let get, _): .numbers(get(values))
        case .bool(let get, _): .bool(get(values))
        case .string(let get, _): .string(get(values))
        case .component(let c): c.get(values.transform)
        }
    }

    /// A value of another type than the entry's is ignored.
    func set(_ value: AnimatableValue, on values: inout LayerProperties) {
        switch (self, value) {
        case (.number(_, let set), .number(let v)): set(&values, v)
        case (.point(_, let set), .point(let v)): set(&values, v)
        case (.size(_, let set), .size(let v)): set(&values, v)
        case (.rect(_, let set), .rect(let v)): set(&values, v)
        case (.color(_, let set), .color(let v)): set(&values, v)
        case (.transform(_, let set), .transform(let v)): set(&values, v)
        case (.path(_, let set), .path(let v)): set(&values, v)
        case (.colors(_, let set), .colors(let v)): set(&values, v)
        case (.numbers(_, let set), .numbers(let v)): set(&values, v)
        case (.bool(_, let set), .bool(let v)): set(&values, v)
        case (.string(_, let set), .string(let v)): set(&values, v)
        case (.component(let c), _): values.transform = c.set(value, in: values.transform)
        default: break
        }
    }
}

extension LayerKeyPath {
    /// The model value.
    public func get(_ layer: Layer) -> AnimatableValue { get(layer.properties) }

    /// The value on screen.
    public func get(_ layer: PresentationLayer) -> AnimatableValue { get(layer.properties) }

    /// Sets the model value; a value of the wrong type is ignored.
    public func set(_ value: AnimatableValue, on layer: inout Layer) { set(value, on: &layer.properties) }
}

/// The `transform.*` key paths (CORE-ANIMATION.md §7.3): read by decomposing the transform; set by
/// decomposing the running transform, replacing the component and recomposing, so the scalar itself is
/// what animates (0 → 2π is a full turn).
public enum TransformComponent: Sendable {
    case scale, scaleX, scaleY, scaleZ, rotationX, rotationY, rotationZ, translation, translationX, translationY, translationZ

    /// UNCONFIRMED (§7.3): a transform that cannot be decomposed (a zero scale) reads as the identity's
    /// components with zero scale.
    static func parts(_ t: Transform3D) -> DecomposedTransform {
        DecomposedTransform(t)
            ?? DecomposedTransform(
                scale: .zero, skew: .zero, quaternion: SIMD4(0, 0, 0, 1), translation: SIMD3(t.m41, t.m42, t.m43),
                perspective: SIMD4(0, 0, 0, 1))
    }

    func get(_ t: Transform3D) -> AnimatableValue {
        let d = Self.parts(t)
        switch self {
        case .scale: return .number((d.scale.x + d.scale.y + d.scale.z) / 3)
        case .scaleX: return .number(d.scale.x)
        case .scaleY: return .number(d.scale.y)
        case .scaleZ: return .number(d.scale.z)
        case .rotationX: return .number(d.eulerAngles.x)
        case .rotationY: return .number(d.eulerAngles.y)
        case .rotationZ: return .number(d.eulerAngles.z)
        case .translation: return .size(Size(width: d.translation.x, height: d.translation.y))
        case .translationX: return .number(d.translation.x)
        case .translationY: return .number(d.translation.y)
        case .translationZ: return .number(d.translation.z)
        }
    }

    func set(_ value: AnimatableValue, in t: Transform3D) -> Transform3D {
        var d = Self.parts(t)
        switch (self, value) {
        case (.scale, .number(let v)): d.scale = SIMD3(repeating: v)
        case (.scaleX, .number(let v)): d.scale.x = v
        case (.scaleY, .number(let v)): d.scale.y = v
        case (.scaleZ, .number(let v)): d.scale.z = v
        case (.rotationX, .number(let v)):
            var e = d.eulerAngles
            e.x = v
            d.setEulerAngles(e)
        case (.rotationY, .number(let v)):
            var e = d.eulerAngles
            e.y = v
            d.setEulerAngles(e)
        case (.rotationZ, .number(let v)):
            var e = d.eulerAngles
            e.z = v
            d.setEulerAngles(e)
        case (.translation, .size(let s)):
            d.translation.x = s.width
            d.translation.y = s.height
        case (.translationX, .number(let v)): d.translation.x = v
        case (.translationY, .number(let v)): d.translation.y = v
        case (.translationZ, .number(let v)): d.translation.z = v
        default: return t
        }
        return d.transform
    }
}
