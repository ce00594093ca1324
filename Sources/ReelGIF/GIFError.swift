/// The GIF codec's errors: what failed and the facts a message needs, worded where errors become
/// messages (`MediaError(_:)` in ReelMedia, which the render reports as any other media failure).

/// A failure writing or joining GIF files.
public enum GIFError: Error, Sendable, Equatable {
    /// The output file could not be created; `reason` is the system's.
    case cannotCreate(path: String, reason: String)
    /// Writing the output failed part-way.
    case cannotWrite(reason: String)
    case cannotClose(reason: String)
    /// A segment to join could not be read.
    case unreadableSegment(path: String)
    /// A segment to join is cut short or is not a GIF89a file; `reason` says where its blocks break off.
    case notWhole(path: String, reason: String)
    /// A segment's screen or palette differs from the first segment's (`first`): its frames would be
    /// drawn in the wrong colours.
    case encodedDifferently(path: String, first: String)
    case cannotWriteJoined(path: String, reason: String)
}
