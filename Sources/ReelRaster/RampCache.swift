/// Gradient ramps kept from one frame to the next, keyed by what they are made from.
import Foundation

/// The ramps a rasterizer's last frame made, for its next frame: an animation draws the same gradients
/// frame after frame (a ramp is 1,025 colours, and making it was a tenth of a gradient-heavy frame), as
/// Blend2D keeps a gradient's table in the gradient object. A ramp is a function of its stops, their
/// locations and how they mix alone, so a kept ramp is the one the frame would make, bit for bit.
///
/// Bounded by two frames' worth: each frame's ramps are the ones looked up since the frame before began
/// (`nextFrame`); the rest are let go then. And by `capacity` ramps a frame (about 32 KiB each with
/// the 8.7 ramp): a frame with more makes the rest afresh, as without the cache. Shared by copies of a
/// rasterizer, and by frames drawn at once on them: a lookup and an insertion under a lock, the ramp
/// itself made outside it.
final class RampCache: @unchecked Sendable {
    struct Key: Hashable {
        let stops: [SIMD4<Float>]
        let locations: [Double]
        let straight: Bool
    }

    /// A ramp and what the shader needs to know of it.
    struct Tables {
        let ramp: [SIMD4<Float>]
        /// The ramp in 8.7 (`Fixed87.fixed`) where an axial gradient asked for it; else empty.
        var ramp87: [SIMD8<Int16>]
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

    static let capacity = 2_048
    private let lock = NSLock()
    private var current: [Key: Tables] = [:]
    private var previous: [Key: Tables] = [:]

    /// The tables for `key` (with the 8.7 ramp where `fixed`), kept from the last frame or this one, or
    /// made by `make`.
    func tables(_ key: Key, fixed: Bool, make: () -> Tables) -> Tables {
        // A kept ramp moves into this frame's set under the same lock as the look-up (the next frame may
        // find it there); a new one is made outside the lock.
        lock.lock()
        if let kept = current[key] ?? previous[key], !fixed || !kept.ramp87.isEmpty {
            if current.count < Self.capacity { current[key] = kept }
            lock.unlock()
            return kept
        }
        let kept = current[key] ?? previous[key]
        lock.unlock()
        let tables = (kept ?? make()).withFixed(fixed)
        lock.lock()
        if current.count < Self.capacity { current[key] = tables }
        lock.unlock()
        return tables
    }

    /// A frame begins: the ramps of the frame before stay for it, older ones go.
    func nextFrame() {
        lock.lock()
        previous = current
        current = [:]
        current.reserveCapacity(min(previous.count, Self.capacity))
        lock.unlock()
    }
}
