/// Rows' hashes: how the GIF writer and the palette builder find a row again (a row of text that
/// scrolled), each match then checked byte for byte.
import Foundation

enum GIFRowHash {
    /// A row's hash: its bytes 32 at a time in four lanes, each eight bytes multiplied in, then mixed.
    /// Four lanes, as one chain of multiplies waited on each before (a 1080p frame's RGBA rows, hashed
    /// in every frame that scrolls, took 1.5 ms so).
    static func hash(_ row: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        let k: UInt64 = 0x9E37_79B9_7F4A_7C15
        var h0 = UInt64(truncatingIfNeeded: count), h1 = h0 ^ 0x2545_F491_4F6C_DD1D, h2 = h0 ^ 0x6A09_E667_F3BC_C908
        var h3 = h0 ^ 0xBB67_AE85_84CA_A73B
        let raw = UnsafeRawPointer(row)
        @inline(__always) func word(_ at: Int) -> UInt64 {
            UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        }
        var i = 0
        while i + 32 <= count {
            h0 = (h0 ^ word(i)) &* k
            h1 = (h1 ^ word(i + 8)) &* k
            h2 = (h2 ^ word(i + 16)) &* k
            h3 = (h3 ^ word(i + 24)) &* k
            h0 ^= h0 >> 29
            h1 ^= h1 >> 29
            h2 ^= h2 >> 29
            h3 ^= h3 >> 29
            i += 32
        }
        var h = mix(h0) ^ (mix(h1) &* 3) ^ (mix(h2) &* 5) ^ (mix(h3) &* 7)
        while i + 8 <= count {
            h = (h ^ word(i)) &* k
            h ^= h >> 29
            i += 8
        }
        while i < count {
            h = (h ^ UInt64(row[i])) &* k
            i += 1
        }
        return mix(h)
    }

    /// MurmurHash3's finalizer: every bit of `h` reaches every bit of the result.
    static func mix(_ h: UInt64) -> UInt64 {
        var h = h
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h = h &* 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return h
    }

    /// The hashes of rows `rows` of a picture (row y at `base + y × stride`, `count` bytes each) written
    /// into `hashes[y]`: on two threads where there are many (a 1080p frame that scrolled is 8 MB to
    /// hash, on the thread every frame waits for).
    static func hash(
        rows: [Int], base: UnsafePointer<UInt8>, stride: Int, count: Int, into hashes: inout [UInt64]
    ) {
        hashes.withUnsafeMutableBufferPointer { out in
            let shared = GIFRowHashes(base: base, out: out.baseAddress!)
            let threads = rows.count * count >= 1 << 20 ? 2 : 1
            DispatchQueue.concurrentPerform(iterations: threads) { part in
                // Halves, not rows dealt in turn: two threads writing neighbouring slots share cache lines.
                for j in (part * rows.count / threads)..<((part + 1) * rows.count / threads) {
                    let y = rows[j]
                    shared.out[y] = hash(shared.base + y * stride, count: count)
                }
            }
        }
    }
}

/// A picture and the hashes being written, handed to the threads hashing its rows (each writes its
/// own rows' slots only).
private struct GIFRowHashes: @unchecked Sendable {
    let base: UnsafePointer<UInt8>
    let out: UnsafeMutablePointer<UInt64>
}
