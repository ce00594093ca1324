// Helpers shared by the test targets: temporary folders, a synthetic test pattern, PSNR, luma PSNR, GIF delays from the bytes.
import Foundation

/// A fresh directory under the system's temporary folder, removed by the caller.
public func makeTemporaryDirectory() throws -> String {
    let dir = (NSTemporaryDirectory() as NSString).appendingPathComponent("reel-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}

/// Synthetic test picture: four flat quadrants (edges on even pixels, so 4:2:0 chroma never straddles
/// two colours) and a white square that moves 2 px per frame.
public struct TestPattern {
    public static let quadrants: [(UInt8, UInt8, UInt8)] = [
        (0x34, 0x78, 0xF6), (0xEE, 0xCD, 0x34), (0xE7, 0x6B, 0x39), (0x18, 0xDE, 0xB9),
    ]

    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public func colour(x: Int, y: Int, frame: Int) -> (UInt8, UInt8, UInt8) {
        let sx = 4 + 2 * frame
        if (sx..<(sx + 8)).contains(x) && (4..<12).contains(y) { return (255, 255, 255) }
        let q = (x < width / 2 ? 0 : 1) + (y < height / 2 ? 0 : 2)
        return Self.quadrants[q]
    }

    public func frame(_ index: Int) -> [UInt8] {
        var px = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let c = colour(x: x, y: y, frame: index)
                let i = (y * width + x) * 4
                px[i] = c.0
                px[i + 1] = c.1
                px[i + 2] = c.2
            }
        }
        return px
    }
}

/// PSNR over the RGB channels of two same-sized RGBA pictures (alpha ignored), in dB.
public func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count)
    var sum = 0.0, n = 0
    for i in 0..<a.count where i % 4 != 3 {
        let d = Double(a[i]) - Double(b[i])
        sum += d * d
        n += 1
    }
    let mse = sum / Double(n)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}

/// The GIF's loop count (NETSCAPE2.0 block) and every frame delay in centiseconds, read straight from
/// the file's bytes (GIF89a block structure), independently of FFmpeg.
public func gifLoopAndDelays(_ bytes: [UInt8]) -> (loop: Int?, delays: [Int]) {
    var i = 13
    let flags = bytes[10]
    if flags & 0x80 != 0 { i += 3 << (Int(flags & 7) + 1) }
    var loop: Int?
    var delays: [Int] = []
    func skipSubBlocks() {
        while i < bytes.count, bytes[i] != 0 { i += Int(bytes[i]) + 1 }
        i += 1
    }
    while i < bytes.count {
        switch bytes[i] {
        case 0x21:
            let label = bytes[i + 1]
            if label == 0xF9 {
                delays.append(Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8)
            } else if label == 0xFF, String(decoding: bytes[(i + 3)..<(i + 14)], as: UTF8.self) == "NETSCAPE2.0" {
                loop = Int(bytes[i + 16]) | Int(bytes[i + 17]) << 8
            }
            i += 2
            skipSubBlocks()
        case 0x2C:
            let local = bytes[i + 9]
            i += 10
            if local & 0x80 != 0 { i += 3 << (Int(local & 7) + 1) }
            i += 1  // LZW minimum code size
            skipSubBlocks()
        case 0x3B:
            return (loop, delays)
        default:
            return (loop, delays)
        }
    }
    return (loop, delays)
}

/// PSNR of the BT.709 luma (Y′ = 0.2126 R′ + 0.7152 G′ + 0.0722 B′) of two RGBA pictures, in dB. Luma is
/// what 4:2:0 keeps at full resolution, so this measures the encoder and the colour matrix without the
/// chroma subsampling's unavoidable loss at coloured edges.
public func lumaPSNR(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count)
    var sum = 0.0
    var i = 0
    while i < a.count {
        let ya = 0.2126 * Double(a[i]) + 0.7152 * Double(a[i + 1]) + 0.0722 * Double(a[i + 2])
        let yb = 0.2126 * Double(b[i]) + 0.7152 * Double(b[i + 1]) + 0.0722 * Double(b[i + 2])
        sum += (ya - yb) * (ya - yb)
        i += 4
    }
    let mse = sum / Double(a.count / 4)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}
