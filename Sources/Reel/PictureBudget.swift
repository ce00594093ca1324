/// The memory a clip's decoded pictures may take together (`contents` images, SVG `<image>`s, Lottie
/// image assets), counted from each picture's header before it is decoded, and the error for the one
/// that would pass it.
import Foundation
import ReelDocument

/// How many bytes of decoded pictures (premultiplied RGBA, 4 bytes a pixel) a clip may hold. Pictures
/// stay decoded for the whole render, so they are counted against the memory limit as they are read,
/// not only in the estimate made once everything is loaded (20 pictures of 4096² once took 1.25 GiB
/// before any limit was looked at).
public struct PictureBudget: Sendable, Equatable {
    /// The bytes the pictures may take together.
    public var bytes: Int
    /// The memory limit it is a share of, in bytes; nil when none was given (the default budget).
    public var memoryLimit: Int?
    /// Renders sharing `memoryLimit` (a batch's concurrent jobs), each with its part.
    public var jobs: Int

    /// 256 MiB, 67 megapixels: one picture of the largest size Reel reads (8192², `Scene.maximumPixelArea`)
    /// or four of 4096². With a default 1080p H.264 render (the encoder's ~500 MiB, frames and drawing
    /// scratch) the whole stays under 1 GiB, within the default limit of half the RAM on any machine
    /// of 2 GiB or more; on smaller ones it is half of that limit.
    public static let defaultBytes = 256 << 20

    /// The share of a memory limit pictures may take: half (messages say "half"). The other half is for the frame FFmpeg
    /// decodes each picture into (at most the budget's size) while loading, then for the render's
    /// frames, encoder and scratch, which the memory estimate checks, pictures included, before drawing.
    public static let shareOfLimit = 2

    /// The budget under `memoryLimit` bytes (nil: the default limit, half the RAM) for one of `jobs`
    /// renders sharing it.
    public init(memoryLimit: Int?, jobs: Int = 1) {
        self.memoryLimit = memoryLimit
        self.jobs = max(1, jobs)
        if let memoryLimit {
            bytes = max(0, memoryLimit) / Self.shareOfLimit / self.jobs
        } else {
            // Half of each job's part of the default limit (half the RAM), when that is smaller.
            let share = Int(clamping: ProcessInfo.processInfo.physicalMemory / 2) / Self.shareOfLimit / self.jobs
            bytes = min(Self.defaultBytes, share)
        }
    }

    /// The default: no memory limit given, one render.
    public static var standard: PictureBudget { PictureBudget(memoryLimit: nil) }

    /// Bytes a picture of `width` × `height` takes decoded (saturating: a header may state anything).
    static func bytes(width: Int, height: Int) -> Int {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow || pixels > Int.max / 4 ? Int.max : pixels * 4
    }
}

/// A picture that would bring the clip's decoded pictures past their budget, refused before decoding.
public struct PictureBudgetError: Error, Sendable {
    /// The scene or SVG file, and where in it the picture is named (line and column, key path or
    /// `<image>`), when known.
    public var file: String
    public var location: SourceLocation?
    public var path: String?
    /// The picture as the file names it (a data URI cut short).
    public var picture: String
    public var width: Int
    public var height: Int
    /// Bytes already held by the pictures admitted before it.
    public var held: Int
    public var budget: PictureBudget
}
