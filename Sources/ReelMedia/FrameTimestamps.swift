/// A video frame's start time from its stream timestamp, put back on the stream's frame grid where the
/// container rounded it (Matroska and WebM store milliseconds, so frame 17 of a 30 fps file says 0.567 s
/// where it began at 17/30 s).

/// Turns stream ticks into seconds. A container whose time base cannot hold the frame rate's instants
/// stores each one rounded to the nearest tick; the instant meant is then the grid point k / rate within
/// half a tick of the timestamp, and it is that instant a scene's times are computed against (a layer at
/// `speed: 2, timeOffset: 0.5` asks for 17/30 s exactly). A timestamp further than half a tick from every
/// grid point (a variable-rate file's own instants) is taken as it is. All in integers: the judgement is
/// exact whatever the numbers.
public struct FrameTimestamps: Sendable, Equatable {
    /// The stream's time base: seconds a tick, as a fraction.
    public var tickNumerator: Int32
    public var tickDenominator: Int32
    /// The rate every frame instant is a multiple of (`r_frame_rate`), frames a second as a fraction;
    /// nil when the stream states none.
    public var rateNumerator: Int32?
    public var rateDenominator: Int32?

    public init(tickNumerator: Int32, tickDenominator: Int32, rateNumerator: Int32?, rateDenominator: Int32?) {
        self.tickNumerator = tickNumerator
        self.tickDenominator = tickDenominator
        let validRate = (rateNumerator ?? 0) > 0 && (rateDenominator ?? 0) > 0
        self.rateNumerator = validRate ? rateNumerator : nil
        self.rateDenominator = validRate ? rateDenominator : nil
    }

    /// Seconds from the stream's start for `ticks` ticks after it.
    public func seconds(ticks: Int64) -> Double {
        let plain = Double(ticks) * (Double(tickNumerator) / Double(tickDenominator))  // as av_q2d, then the product
        guard let rn = rateNumerator, let rd = rateDenominator, tickNumerator > 0, tickDenominator > 0 else { return plain }
        // Both sides scaled by td·rd·rn: the timestamp is ticks·tn·rn, grid point k is k·td·rd, and half a
        // tick is tn·rn / 2 (compared doubled, to stay in integers; Int128 holds 64 × 32 × 32 bits).
        let stamp = Int128(ticks) * Int128(tickNumerator) * Int128(rn)
        let frame = Int128(tickDenominator) * Int128(rd)
        var k = stamp / frame
        let remainder = stamp - k * frame
        if 2 * remainder > frame { k += 1 } else if 2 * remainder < -frame { k -= 1 }
        guard 2 * abs(stamp - k * frame) <= Int128(tickNumerator) * Int128(rn) else { return plain }
        guard let grid = Int64(exactly: k) else { return plain }
        return Double(grid) * Double(rd) / Double(rn)
    }
}
