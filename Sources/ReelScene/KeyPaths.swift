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

    public enum ValueType: String, Sendable { case number, point, size, rect, color }

    public var valueType: ValueType {
        switch self {
        case .position, .anchorPoint: return .point
        case .bounds: return .rect
        case .boundsSize: return .size
        case .backgroundColor: return .color
        case .positionX, .positionY, .boundsWidth, .boundsHeight, .opacity, .cornerRadius: return .number
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
        default: break
        }
    }
}
