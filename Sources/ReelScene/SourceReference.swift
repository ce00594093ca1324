/// Where a scene file gave a value (a layer's `contents`), kept with the scene so that a problem found
/// after reading, such as an image that cannot be read, names its line and column.
import ReelDocument

/// A place in a scene file: line and column, and the key path of the value there.
public struct SourceReference: Sendable, Hashable {
    public var location: SourceLocation?
    public var path: String

    public init(location: SourceLocation?, path: String) {
        self.location = location
        self.path = path
    }
}
