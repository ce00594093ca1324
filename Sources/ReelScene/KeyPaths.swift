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
    case opacity
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

    public enum ValueType: String, Sendable { case number, point, size, rect, color }

    public var valueType: ValueType {
        switch self {
        case .position, .anchorPoint, .shadowOffset, .startPoint, .endPoint: return .point
        case .bounds: return .rect
        case .boundsSize: return .size
        case .backgroundColor, .borderColor, .shadowColor, .fillColor, .strokeColor: return .color
        case .positionX, .positionY, .boundsWidth, .boundsHeight, .opacity, .cornerRadius, .borderWidth, .shadowOpacity,
            .shadowRadius,
            .lineWidth, .miterLimit, .lineDashPhase, .strokeStart, .strokeEnd:
            return .number
        }
    }

    public func get(_ layer: Layer) -> AnimatableValue {
        switch self {
        case .position: return .point(layer.position)
        case .positionX: return .number(layer.position.x)
        case .positionY: return .number(layer.position.y)
        case .bounds: return .rect(layer.bounds)
        case .boundsSize: return .size(layer.bounds.size)
        case .boundsWidth: return .number(layer.bounds.size.width)
        case .boundsHeight: return .number(layer.bounds.size.height)
        case .anchorPoint: return .point(layer.anchorPoint)
        case .opacity: return .number(layer.opacity)
        case .backgroundColor: return .color(layer.backgroundColor ?? .clear)
        case .cornerRadius: return .number(layer.cornerRadius)
        case .borderWidth: return .number(layer.borderWidth)
        case .borderColor: return .color(layer.borderColor)
        case .shadowColor: return .color(layer.shadowColor)
        case .shadowOpacity: return .number(layer.shadowOpacity)
        case .shadowOffset: return .point(layer.shadowOffset)
        case .shadowRadius: return .number(layer.shadowRadius)
        case .fillColor: return .color(layer.shape.fillColor ?? .clear)
        case .strokeColor: return .color(layer.shape.strokeColor ?? .clear)
        case .lineWidth: return .number(layer.shape.stroke.lineWidth)
        case .miterLimit: return .number(layer.shape.stroke.miterLimit)
        case .lineDashPhase: return .number(layer.shape.stroke.lineDashPhase)
        case .strokeStart: return .number(layer.shape.stroke.strokeStart)
        case .strokeEnd: return .number(layer.shape.stroke.strokeEnd)
        case .startPoint: return .point(layer.gradient.startPoint)
        case .endPoint: return .point(layer.gradient.endPoint)
        }
    }

    /// Sets the value; a value of the wrong type is ignored (the decoder checks types up front).
    public func set(_ value: AnimatableValue, on layer: inout Layer) {
        switch (self, value) {
        case (.position, .point(let p)): layer.position = p
        case (.positionX, .number(let v)): layer.position.x = v
        case (.positionY, .number(let v)): layer.position.y = v
        case (.bounds, .rect(let r)): layer.bounds = r
        case (.boundsSize, .size(let s)): layer.bounds.size = s
        case (.boundsWidth, .number(let v)): layer.bounds.size.width = v
        case (.boundsHeight, .number(let v)): layer.bounds.size.height = v
        case (.anchorPoint, .point(let p)): layer.anchorPoint = p
        case (.opacity, .number(let v)): layer.opacity = v
        case (.backgroundColor, .color(let c)): layer.backgroundColor = c
        case (.cornerRadius, .number(let v)): layer.cornerRadius = v
        case (.borderWidth, .number(let v)): layer.borderWidth = v
        case (.borderColor, .color(let c)): layer.borderColor = c
        case (.shadowColor, .color(let c)): layer.shadowColor = c
        case (.shadowOpacity, .number(let v)): layer.shadowOpacity = v
        case (.shadowOffset, .point(let p)): layer.shadowOffset = p
        case (.shadowRadius, .number(let v)): layer.shadowRadius = v
        case (.fillColor, .color(let c)): layer.shape.fillColor = c
        case (.strokeColor, .color(let c)): layer.shape.strokeColor = c
        case (.lineWidth, .number(let v)): layer.shape.stroke.lineWidth = v
        case (.miterLimit, .number(let v)): layer.shape.stroke.miterLimit = v
        case (.lineDashPhase, .number(let v)): layer.shape.stroke.lineDashPhase = v
        case (.strokeStart, .number(let v)): layer.shape.stroke.strokeStart = v
        case (.strokeEnd, .number(let v)): layer.shape.stroke.strokeEnd = v
        case (.startPoint, .point(let p)): layer.gradient.startPoint = p
        case (.endPoint, .point(let p)): layer.gradient.endPoint = p
        default: break
        }
    }
}
