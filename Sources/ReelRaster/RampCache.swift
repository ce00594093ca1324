/// Gradient ramps kept from one frame to the next, keyed by what they are made from.
import Foundation

/// The ramps a rasterizer's last frame made, for its next frame: an animation draws the same gradients
/// frame after frame (a ramp is 1,025 colours, and making it was a tenth of a gradient-heavy frame), as
/// Blend2D keeps a gradient's table in the gradient object. A ramp is a function of its stops, their
/// locations and how they mix alone, so a kept ramp is the one the frame would make, bit for bit.
///
/// Bounded by two frames' worth: each frame's ramps are the ones looked up since the frame before began
/// (`nextFrame`); the rest are let go then. And by `capacity` ramps a frame (about 24 KiB each with
/// the 8.7 ramp), `shardCapacity` in each shard: a frame with more makes the rest afresh, as
/// without the cache. Keys spread over the shards unevenly, so a frame with nearly `capacity` ramps
/// may make some afresh too (the same ramps, at a ramp's cost). Shared by copies of a rasterizer, and
/// by frames drawn at once on them: a lookup and an insertion under a lock, the ramp itself made
/// outside it.
///
/// The keys are spread over `shardCount` shards, each with its own lock and dictionaries, and a key's
/// hash is worked out once, before any lock: with one lock, the workers preparing a frame of a
/// thousand gradients met on it often enough that unlocking woke the other thread through the kernel
/// (`futex`; the wakes alone were 1.3 % of rects_linear's two-thread samples, beside the sleeps).
final class RampCache: @unchecked Sendable {
    struct Key: Hashable {
        let stops: [SIMD4<Float>]
        let locations: [Double]
        let straight: Bool
        /// The hash of the three, worked out once (a dictionary asks for it at every lookup and insertion).
        let hash: Int

        init(stops: [SIMD4<Float>], locations: [Double], straight: Bool) {
            self.stops = stops
            self.locations = locations
            self.straight = straight
            var h = Hasher()
            h.combine(stops)
            h.combine(locations)
            h.combine(straight)
            hash = h.finalize()
        }

        static func == (a: Key, b: Key) -> Bool {
            a.hash == b.hash && a.straight == b.straight && a.stops == b.stops && a.locations == b.locations
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    /// A ramp and what the shader needs to know of it.
    struct Tables {
        let ramp: [SIMD4<Float>]
        /// The ramp in 8.7 (`Fixed87.fixed`) where an axial gradient asked for it; else empty.
        var ramp87: [SIMD4<Int16>]
        /// Every colour of the ramp is opaque.
        let opaque: Bool
        /// Some colour of the ramp is not transparent.
        let visible: Bool

        /// These tables with the 8.7 ramp made where `fixed` asks for it and it is not made yet.
        func withFixed(_ fixed: Bool) -> Tables {
            guard fixed && ramp87.isEmpty else { return self }
            var t = self
            t.ramp87 = ramp.map(Fixed87.fixed)
            return t
        }
    }

    /// The keys whose hashes share their low bits, with their lock.
    private final class Shard: @unchecked Sendable {
        let lock = NSLock()
        var current: [Key: Tables] = [:]
        var previous: [Key: Tables] = [:]
    }

    static let capacity = 2_048
    static let shardCount = 16
    /// The ramps a shard keeps a frame.
    static let shardCapacity = capacity / shardCount
    private let shards = (0..<RampCache.shardCount).map { _ in Shard() }

    /// The tables for `key` (with the 8.7 ramp where `fixed`), kept from the last frame or this one, or
    /// made by `make`.
    func tables(_ key: Key, fixed: Bool, make: () -> Tables) -> Tables {
        let shard = shards[key.hash & (Self.shardCount - 1)]
        // A kept ramp moves into this frame's set under the same lock as the look-up (the next frame may
        // find it there); a new one (or a kept one still without the 8.7 ramp asked for) is made outside
        // the lock.
        shard.lock.lock()
        let kept = shard.current[key] ?? shard.previous[key]
        if let kept, !fixed || !kept.ramp87.isEmpty {
            if shard.current.count < Self.shardCapacity { shard.current[key] = kept }
            shard.lock.unlock()
            return kept
        }
        shard.lock.unlock()
        let tables = (kept ?? make()).withFixed(fixed)
        shard.lock.lock()
        if shard.current.count < Self.shardCapacity { shard.current[key] = tables }
        shard.lock.unlock()
        return tables
    }

    /// A frame begins: the ramps of the frame before stay for it, older ones go. Shard by shard, so a
    /// look-up made meanwhile (by a frame drawn at once on a copy) may find one shard moved on and
    /// another not: it then makes a ramp afresh or keeps one a frame longer, the same ramp either way.
    func nextFrame() {
        for shard in shards {
            shard.lock.lock()
            shard.previous = shard.current
            shard.current = [:]
            shard.current.reserveCapacity(min(shard.previous.count, Self.shardCapacity))
            shard.lock.unlock()
        }
    }
}
