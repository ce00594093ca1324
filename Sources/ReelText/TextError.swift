/// What can go wrong reading a font or shaping text, said so that a user can fix it.
public struct TextError: Error, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
