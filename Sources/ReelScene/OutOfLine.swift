/// Property groups held out of line: most layers never set a shape, gradient, replicator, text or
/// video, and every presentation of every frame copies a layer's properties.

/// A property group's value when a layer never sets it, so that such a layer holds no box at all.
public protocol OutOfLineDefault {
    static var outOfLineDefault: Self { get }
}

/// A value kept in a shared box that is copied only when a holder changes it (copy on write), so that a
/// struct holding it stays small and its copies share the box. `LayerProperties` keeps its rarely set
/// groups (840 of its 1,384 bytes) this way: a frame's presentation copies each layer's properties, and
/// with 100,000 layers those copies were most of a frame's memory. A group never set has no box (it reads
/// as its default): a box for each of the five groups of each layer was 91 MB of a 100,000-layer scene.
@propertyWrapper
public struct OutOfLine<Value: OutOfLineDefault & Sendable>: Sendable {
    // Changed only while uniquely referenced (below), so sharing it between threads is safe.
    @usableFromInline final class Box: @unchecked Sendable {
        @usableFromInline var value: Value
        @usableFromInline init(_ value: Value) { self.value = value }
    }

    @usableFromInline var box: Box?

    public init() {}

    public init(wrappedValue: Value) { box = Box(wrappedValue) }

    // Inlinable and read in place: a reader in another module (the renderer, every layer of every frame)
    // would otherwise call a getter that hands back a copy of the whole group.
    @inlinable public var wrappedValue: Value {
        _read {
            if let box {
                yield box.value
            } else {
                yield Value.outOfLineDefault
            }
        }
        set {
            if box != nil, isKnownUniquelyReferenced(&box!) {
                box!.value = newValue
            } else {
                box = Box(newValue)
            }
        }
        _modify {
            if box == nil {
                box = Box(Value.outOfLineDefault)
            } else if !isKnownUniquelyReferenced(&box!) {
                box = Box(box!.value)
            }
            yield &box!.value
        }
    }
}

extension ShapeProperties: OutOfLineDefault { public static var outOfLineDefault: Self { Self() } }
extension GradientProperties: OutOfLineDefault { public static var outOfLineDefault: Self { Self() } }
extension ReplicatorProperties: OutOfLineDefault { public static var outOfLineDefault: Self { Self() } }
extension TextProperties: OutOfLineDefault { public static var outOfLineDefault: Self { Self() } }
extension Optional: OutOfLineDefault { public static var outOfLineDefault: Self { nil } }
extension LayerProperties: OutOfLineDefault { public static var outOfLineDefault: Self { Self() } }
