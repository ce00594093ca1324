/// The ramp cache's lifetimes (a ramp kept for the frame after, then let go) and its keys, whose hash is
/// worked out once and picks their shard.
import Testing

@testable import ReelRaster

@Suite struct RampCacheTests {
    static func key(_ red: Float, locations: [Double] = [0, 1], straight: Bool = false) -> RampCache.Key {
        RampCache.Key(stops: [SIMD4(red, 0, 0, 255), SIMD4(255, 255, 255, 255)], locations: locations, straight: straight)
    }

    static func tables(_ red: Float) -> RampCache.Tables {
        RampCache.Tables(ramp: [SIMD4(red, 0, 0, 255)], ramp87: [], opaque: true, visible: true)
    }

    /// Each part of a key tells keys apart; equal keys hash alike.
    @Test func keysDifferByEachPart() {
        let k = Self.key(10)
        #expect(k == Self.key(10) && k.hash == Self.key(10).hash)
        #expect(k != Self.key(11))
        #expect(k != Self.key(10, locations: [0, 0.5]))
        #expect(k != Self.key(10, straight: true))
        // Stops of −0 and +0 are the same colour: equal keys, equal hashes.
        #expect(Self.key(-0.0) == Self.key(0) && Self.key(-0.0).hash == Self.key(0).hash)
    }

    /// Made once in a frame, kept for the next frame, made again after a frame without it: `make` is
    /// called only where the cache has nothing. Forty keys, so most shards hold several.
    @Test func rampsLiveForTheFrameAfter() {
        let cache = RampCache()
        var made = 0
        func look(_ red: Float) -> RampCache.Tables {
            cache.tables(Self.key(red), fixed: false) {
                made += 1
                return Self.tables(red)
            }
        }
        let reds = (0..<40).map { Float($0) }
        for red in reds { #expect(look(red).ramp == [SIMD4(red, 0, 0, 255)]) }
        for red in reds { _ = look(red) }
        #expect(made == 40, "each key made once in its frame")
        cache.nextFrame()
        for red in reds { #expect(look(red).ramp == [SIMD4(red, 0, 0, 255)]) }
        #expect(made == 40, "kept for the frame after")
        cache.nextFrame()
        cache.nextFrame()
        for red in reds { _ = look(red) }
        #expect(made == 80, "let go after a frame without it, in every shard")
    }

    /// The 8.7 ramp is made where it is asked for and kept with the rest.
    @Test func fixedRampMadeOnceAndKept() {
        let cache = RampCache()
        var made = 0
        let make = {
            made += 1
            return Self.tables(7)
        }
        #expect(cache.tables(Self.key(7), fixed: false, make: make).ramp87.isEmpty)
        #expect(cache.tables(Self.key(7), fixed: true, make: make).ramp87 == [Fixed87.fixed(SIMD4(7, 0, 0, 255))])
        cache.nextFrame()
        #expect(cache.tables(Self.key(7), fixed: true, make: make).ramp87.count == 1)
        #expect(made == 1)
    }
}
