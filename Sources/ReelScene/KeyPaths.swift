/// The animatable key paths of a layer, and how each reads and writes layer properties.
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
    /// A video layer's sound level (what AVPlayer's `volume` is).
    case volume
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

    public var valueType: ValueType {
        switch self {
        case .position, .anchorPoint, .shadowOffset, .startPoint, .endPoint: return .point
        case .bounds: return .rect
        case .boundsSize, .transformTranslation: return .size
        case .transform, .sublayerTransform, .fillGradientTransform, .strokeGradientTransform: return .transform
        case .path: return .path
        case .instanceCount, .instanceDelay: return .number
        case .instanceTransform: return .transform
        case .instanceColor, .foregroundColor: return .color
        case .string: return .string
        case .fontSize, .letterSpacing, .volume: return .number
        case .colors, .fillGradientColors, .strokeGradientColors: return .colors
        case .hidden: return .bool
        case .locations, .fillGradientLocations, .strokeGradientLocations: return .numbers
        case .zPosition, .transformScale, .transformScaleX, .transformScaleY, .transformScaleZ, .transformRotation,
            .transformRotationX,
            .transformRotationY, .transformRotationZ, .transformTranslationX, .transformTranslationY, .transformTranslationZ:
            return .number
        case .backgroundColor, .borderColor, .shadowColor, .fillColor, .strokeColor: return .color
        case .positionX, .positionY, .boundsWidth, .boundsHeight, .opacity, .cornerRadius, .borderWidth, .shadowOpacity,
            .shadowRadius,
            .lineWidth, .miterLimit, .lineDashPhase, .strokeStart, .strokeEnd:
            return .number
        }
    }

    public func get(_ values: LayerProperties) -> AnimatableValue {
        if let component = transformComponent {
            return component.get(values.transform)
        }
        switch self {
        case .position: return .point(values.position)
        case .positionX: return .number(values.position.x)
        case .positionY: return .number(values.position.y)
        case .bounds: return .rect(values.bounds)
        case .boundsSize: return .size(values.bounds.size)
        case .boundsWidth: return .number(values.bounds.size.width)
        case .boundsHeight: return .number(values.bounds.size.height)
        case .anchorPoint: return .point(values.anchorPoint)
        case .transform: return .transform(values.transform)
        case .sublayerTransform: return .transform(values.sublayerTransform)
        case .zPosition: return .number(values.zPosition)
        case .transformScale, .transformScaleX, .transformScaleY, .transformScaleZ, .transformRotation, .transformRotationX,
            .transformRotationY, .transformRotationZ, .transformTranslation, .transformTranslationX, .transformTranslationY,
            .transformTranslationZ:
            return .number(0)  // handled above
        case .opacity: return .number(values.opacity)
        case .hidden: return .bool(values.hidden)
        case .backgroundColor: return .color(values.backgroundColor ?? .clear)
        case .cornerRadius: return .number(values.cornerRadius)
        case .borderWidth: return .number(values.borderWidth)
        case .borderColor: return .color(values.borderColor)
        case .shadowColor: return .color(values.shadowColor)
        case .shadowOpacity: return .number(values.shadowOpacity)
        case .shadowOffset: return .point(values.shadowOffset)
        case .shadowRadius: return .number(values.shadowRadius)
        case .fillColor: return .color(values.shape.fillColor ?? .clear)
        case .strokeColor: return .color(values.shape.strokeColor ?? .clear)
        case .lineWidth: return .number(values.shape.stroke.lineWidth)
        case .miterLimit: return .number(values.shape.stroke.miterLimit)
        case .lineDashPhase: return .number(values.shape.stroke.lineDashPhase)
        case .strokeStart: return .number(values.shape.stroke.strokeStart)
        case .strokeEnd: return .number(values.shape.stroke.strokeEnd)
        case .startPoint: return .point(values.gradient.startPoint)
        case .endPoint: return .point(values.gradient.endPoint)
        case .path: return .path(values.shape.path)
        case .instanceCount: return .number(Double(values.replicator.instanceCount))
        case .instanceDelay: return .number(values.replicator.instanceDelay)
        case .instanceTransform: return .transform(values.replicator.instanceTransform)
        case .instanceColor: return .color(values.replicator.instanceColor)
        case .colors: return .colors(values.gradient.colors)
        case .string: return .string(values.text.string)
        case .fontSize: return .number(values.text.fontSize)
        case .foregroundColor: return .color(values.text.foregroundColor)
        case .letterSpacing: return .number(values.text.letterSpacing)
        case .volume: return .number(values.video?.volume ?? 1)
        case .fillGradientTransform: return .transform(Transform3D(values.shape.fillGradient?.transform ?? .identity))
        case .strokeGradientTransform: return .transform(Transform3D(values.shape.strokeGradient?.transform ?? .identity))
        case .fillGradientColors: return .colors(values.shape.fillGradient?.colors ?? [])
        case .fillGradientLocations: return .numbers(values.shape.fillGradient?.locations ?? [])
        case .strokeGradientColors: return .colors(values.shape.strokeGradient?.colors ?? [])
        case .strokeGradientLocations: return .numbers(values.shape.strokeGradient?.locations ?? [])
        case .locations:
            let n = values.gradient.colors.count
            return .numbers(values.gradient.locations ?? (0..<n).map { n > 1 ? Double($0) / Double(n - 1) : 0 })
        }
    }

    /// Sets the value; a value of the wrong type is ignored (the decoder checks types up front).
    public func set(_ value: AnimatableValue, on values: inout LayerProperties) {
        if let component = transformComponent {
            values.transform = component.set(value, in: values.transform)
            return
        }
        switch (self, value) {
        case (.position, .point(let p)): values.position = p
        case (.positionX, .number(let v)): values.position.x = v
        case (.positionY, .number(let v)): values.position.y = v
        case (.bounds, .rect(let r)): values.bounds = r
        case (.boundsSize, .size(let s)): values.bounds.size = s
        case (.boundsWidth, .number(let v)): values.bounds.size.width = v
        case (.boundsHeight, .number(let v)): values.bounds.size.height = v
        case (.anchorPoint, .point(let p)): values.anchorPoint = p
        case (.transform, .transform(let t)): values.transform = t
        case (.sublayerTransform, .transform(let t)): values.sublayerTransform = t
        case (.zPosition, .number(let v)): values.zPosition = v
        case (.opacity, .number(let v)): values.opacity = v
        case (.hidden, .bool(let b)): values.hidden = b
        case (.backgroundColor, .color(let c)): values.backgroundColor = c
        case (.cornerRadius, .number(let v)): values.cornerRadius = v
        case (.borderWidth, .number(let v)): values.borderWidth = v
        case (.borderColor, .color(let c)): values.borderColor = c
        case (.shadowColor, .color(let c)): values.shadowColor = c
        case (.shadowOpacity, .number(let v)): values.shadowOpacity = v
        case (.shadowOffset, .point(let p)): values.shadowOffset = p
        case (.shadowRadius, .number(let v)): values.shadowRadius = v
        case (.fillColor, .color(let c)): values.shape.fillColor = c
        case (.strokeColor, .color(let c)): values.shape.strokeColor = c
        case (.lineWidth, .number(let v)): values.shape.stroke.lineWidth = v
        case (.miterLimit, .number(let v)): values.shape.stroke.miterLimit = v
        case (.lineDashPhase, .number(let v)): values.shape.stroke.lineDashPhase = v
        case (.strokeStart, .number(let v)): values.shape.stroke.strokeStart = v
        case (.strokeEnd, .number(let v)): values.shape.stroke.strokeEnd = v
        case (.startPoint, .point(let p)): values.gradient.startPoint = p
        case (.endPoint, .point(let p)): values.gradient.endPoint = p
        case (.path, .path(let p)): values.shape.path = p
        case (.instanceCount, .number(let v)):
            values.replicator.instanceCount = Int(max(0, min(v, Double(Scene.maximumInstances))).rounded(.down))
        case (.instanceDelay, .number(let v)): values.replicator.instanceDelay = v
        case (.instanceTransform, .transform(let t)): values.replicator.instanceTransform = t
        case (.instanceColor, .color(let c)): values.replicator.instanceColor = c
        case (.colors, .colors(let c)): values.gradient.colors = c
        case (.locations, .numbers(let v)): values.gradient.locations = v
        case (.string, .string(let s)): values.text.string = s
        case (.fontSize, .number(let v)): values.text.fontSize = min(max(0, v), TextProperties.maximumFontSize)
        case (.foregroundColor, .color(let c)): values.text.foregroundColor = c
        case (.letterSpacing, .number(let v)): values.text.letterSpacing = v
        case (.volume, .number(let v)): values.video?.volume = v
        case (.fillGradientTransform, .transform(let t)): values.shape.fillGradient?.transform = t.affine
        case (.strokeGradientTransform, .transform(let t)): values.shape.strokeGradient?.transform = t.affine
        // A ramp keeps its stop count: a value of another length is ignored.
        case (.fillGradientColors, .colors(let c)) where c.count == values.shape.fillGradient?.colors.count:
            values.shape.fillGradient?.colors = c
        case (.fillGradientLocations, .numbers(let v)) where v.count == values.shape.fillGradient?.locations.count:
            values.shape.fillGradient?.locations = v
        case (.strokeGradientColors, .colors(let c)) where c.count == values.shape.strokeGradient?.colors.count:
            values.shape.strokeGradient?.colors = c
        case (.strokeGradientLocations, .numbers(let v)) where v.count == values.shape.strokeGradient?.locations.count:
            values.shape.strokeGradient?.locations = v
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

extension LayerKeyPath {
    var transformComponent: TransformComponent? {
        switch self {
        case .transformScale: return .scale
        case .transformScaleX: return .scaleX
        case .transformScaleY: return .scaleY
        case .transformScaleZ: return .scaleZ
        case .transformRotation, .transformRotationZ: return .rotationZ
        case .transformRotationX: return .rotationX
        case .transformRotationY: return .rotationY
        case .transformTranslation: return .translation
        case .transformTranslationX: return .translationX
        case .transformTranslationY: return .translationY
        case .transformTranslationZ: return .translationZ
        default: return nil
        }
    }
}
