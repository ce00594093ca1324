/// Motion blur: a frame as the mean of pictures sampled across the shutter's interval, and when those are.
import Foundation

/// A camera's shutter: each frame is the mean of `samples` pictures spread evenly over the time the
/// shutter is open, `shutterAngle`/360 of a frame's duration, centred on the frame's time (After
/// Effects' default phase, −angle/2; Blender's "center").
public struct MotionBlur: Sendable, Equatable {
    /// Degrees of the frame's 360 the shutter is open: 180 (film's usual) blurs half a frame's motion.
    public var shutterAngle: Double
    public var samples: Int

    /// A film camera's shutter, sampled eight times.
    public init(shutterAngle: Double = 180, samples: Int = 8) {
        self.shutterAngle = shutterAngle
        self.samples = samples
    }

    /// Angles a shutter may have: a shutter open longer than a frame (up to two) smears each frame into
    /// the next, as After Effects allows (720°).
    public static let angles: ClosedRange<Double> = 0...720
    /// Samples a frame: each is a display list, and the frame's moving rows are drawn once for each.
    public static let sampleCounts: ClosedRange<Int> = 2...64

    /// The sample times of the frame at `time`, of a rate whose frames last `frameDuration`: the middles of
    /// `samples` equal slices of the shutter's interval. One time (the frame's own) for a shut shutter.
    public func times(at time: Double, frameDuration: Double) -> [Double] {
        let open = shutterAngle / 360 * frameDuration
        guard open > 0, samples > 1 else { return [time] }
        return (0..<samples).map { i in time + ((Double(i) + 0.5) / Double(samples) - 0.5) * open }
    }
}
