/// Property groups held out of line: most layers never set a shape, gradient, replicator, text or
/// video, and every presentation of every frame copies a layer's properties.

/// A value kept in a shared box that is copied only when a holder changes it (copy on write), so that a
/// struct holding it stays small and its copies share the box. `LayerProperties` keeps its rarely set
/// groups (840 of its 1,384 bytes) this way: a frame's presentation copies each layer's properties, and
/// with 100,000 layers those copies were most of a frame's memory.
@propertyWrapper
public struct OutOfLine<Value: Sendable>: Sendable {
    // Changed only while uniquely referenced (below), so sharing it between threads is safe.
    private final class Box: @unchecked Sendable {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private var box: Box

    public init(wrappedValue: Value) {
        box = Box(wrappedValue)
    }

    public var wrappedValue: Value {
        get { box.value }
        set {
            if isKnownUniquelyReferenced(&box) {
                box.value = newValue
            } else {
                box = Box(newValue)
            }
        }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
            yield &box.value
        }
    }
}
