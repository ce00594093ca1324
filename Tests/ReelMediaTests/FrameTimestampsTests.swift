/// FrameTimestamps: a stream timestamp that a container rounded to its ticks is put back on the frame
/// grid, and only then; every expectation worked out by hand.
import ReelMedia
import Testing

@Suite struct FrameTimestampsTests {
    static let milliseconds30 = FrameTimestamps(tickNumerator: 1, tickDenominator: 1000, rateNumerator: 30, rateDenominator: 1)

    /// Matroska's 567 ms is frame 17 of 30 fps (566.67 ms, a third of a tick away); 533 ms is frame 16
    /// (533.33 ms). Each comes back as the division k / 30, the instant a scene's times are computed against.
    @Test func roundedMillisecondsReturnToTheGrid() {
        #expect(Self.milliseconds30.seconds(ticks: 567) == 17.0 / 30.0)
        #expect(Self.milliseconds30.seconds(ticks: 533) == 16.0 / 30.0)
        #expect(Self.milliseconds30.seconds(ticks: 1000) == 1.0)
        #expect(Self.milliseconds30.seconds(ticks: -33) == -1.0 / 30.0)
    }

    /// 566 ms is two thirds of a tick from 17/30 s and 1.1 s at 25 fps is half a frame from the grid:
    /// neither could be a rounded grid instant, so each is taken as it is.
    @Test func timestampsOffTheGridAreKept() {
        #expect(Self.milliseconds30.seconds(ticks: 566) == 566 * (1.0 / 1000))
        let vfr = FrameTimestamps(tickNumerator: 1, tickDenominator: 1000, rateNumerator: 25, rateDenominator: 1)
        #expect(vfr.seconds(ticks: 1100) == 1100 * (1.0 / 1000))
    }

    /// A time base that holds the rate exactly (MP4's 1/15360 for 30 fps, 1/90000 for 30000/1001) gives
    /// the grid instant itself; a stream with no rate gives ticks × time base.
    @Test func exactTimeBasesAndStreamsWithoutARate() {
        let mp4 = FrameTimestamps(tickNumerator: 1, tickDenominator: 15360, rateNumerator: 30, rateDenominator: 1)
        #expect(mp4.seconds(ticks: 8704) == 17.0 / 30.0)
        let ntsc = FrameTimestamps(tickNumerator: 1, tickDenominator: 90000, rateNumerator: 30000, rateDenominator: 1001)
        #expect(ntsc.seconds(ticks: 3003) == 1001.0 / 30000.0)
        let none = FrameTimestamps(tickNumerator: 1, tickDenominator: 1000, rateNumerator: 0, rateDenominator: 1)
        #expect(none.seconds(ticks: 567) == 567 * (1.0 / 1000))
    }

    /// The largest timestamps and time bases stay in range (64 × 32 × 32 bits in Int128).
    @Test func extremesDoNotOverflow() {
        let wide = FrameTimestamps(
            tickNumerator: .max, tickDenominator: 1, rateNumerator: .max, rateDenominator: 1)
        #expect(wide.seconds(ticks: .max).isFinite)
        #expect(wide.seconds(ticks: .min).isFinite)
    }
}
