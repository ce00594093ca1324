// A GIF89a decoder for the tests: every frame as the viewer shows it (RGBA), read straight from the
// bytes, independently of the writer and of FFmpeg, so a test can hold the writer's pixels to a bound.

/// A decoded GIF: its size and each frame as shown (straight RGBA, transparent where nothing is drawn),
/// with its delay in centiseconds.
public struct DecodedGIF {
    public var width = 0
    public var height = 0
    public var frames: [[UInt8]] = []
    public var delays: [Int] = []
}

public enum GIFReadError: Error, Equatable {
    case notAGIF
    case truncated(at: Int)
    case badCode(frame: Int)
}

/// Decodes `bytes` (GIF87a/89a, not interlaced: Reel's writer never interlaces) frame by frame, each
/// drawn over what the frame before left: its rectangle's transparent pixels leave what was there, and
/// disposal 2 clears its rectangle after it is shown.
public func decodeGIF(_ bytes: [UInt8]) throws -> DecodedGIF {
    guard bytes.count >= 13, bytes[0..<3] == [0x47, 0x49, 0x46] else { throw GIFReadError.notAGIF }
    var gif = DecodedGIF()
    gif.width = Int(bytes[6]) | Int(bytes[7]) << 8
    gif.height = Int(bytes[8]) | Int(bytes[9]) << 8
    var i = 13
    func table(_ flags: UInt8) throws -> [UInt8] {
        let n = 3 << (Int(flags & 7) + 1)
        guard i + n <= bytes.count else { throw GIFReadError.truncated(at: i) }
        defer { i += n }
        return Array(bytes[i..<(i + n)])
    }
    let global = bytes[10] & 0x80 != 0 ? try table(bytes[10]) : []
    var canvas = [UInt8](repeating: 0, count: gif.width * gif.height * 4)
    var transparent: Int?, disposal = 0, delay = 0
    func subBlocks() throws -> [UInt8] {
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw GIFReadError.truncated(at: i) }
            let n = Int(bytes[i])
            i += 1
            if n == 0 { return out }
            guard i + n <= bytes.count else { throw GIFReadError.truncated(at: i) }
            out += bytes[i..<(i + n)]
            i += n
        }
    }
    while i < bytes.count {
        switch bytes[i] {
        case 0x21:
            if bytes[i + 1] == 0xF9 {
                let flags = bytes[i + 3]
                disposal = Int(flags >> 2 & 7)
                delay = Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8
                transparent = flags & 1 != 0 ? Int(bytes[i + 6]) : nil
            }
            i += 2
            _ = try subBlocks()
        case 0x2C:
            guard i + 10 <= bytes.count else { throw GIFReadError.truncated(at: i) }
            let left = Int(bytes[i + 1]) | Int(bytes[i + 2]) << 8, top = Int(bytes[i + 3]) | Int(bytes[i + 4]) << 8
            let w = Int(bytes[i + 5]) | Int(bytes[i + 6]) << 8, h = Int(bytes[i + 7]) | Int(bytes[i + 8]) << 8
            let flags = bytes[i + 9]
            i += 10
            let colours = flags & 0x80 != 0 ? try table(flags) : global
            let codeSize = Int(bytes[i])
            i += 1
            let indices = try lzwDecode(try subBlocks(), codeSize: codeSize, count: w * h, frame: gif.frames.count)
            let before = canvas
            for y in 0..<h {
                for x in 0..<w where top + y < gif.height && left + x < gif.width {
                    let index = Int(indices[y * w + x])
                    if index == transparent { continue }
                    let p = ((top + y) * gif.width + left + x) * 4
                    canvas[p] = colours[3 * index]
                    canvas[p + 1] = colours[3 * index + 1]
                    canvas[p + 2] = colours[3 * index + 2]
                    canvas[p + 3] = 255
                }
            }
            gif.frames.append(canvas)
            gif.delays.append(delay)
            if disposal == 2 {
                for y in top..<min(top + h, gif.height) {
                    for x in left..<min(left + w, gif.width) {
                        for c in 0..<4 { canvas[(y * gif.width + x) * 4 + c] = 0 }
                    }
                }
            } else if disposal == 3 {
                canvas = before
            }
            transparent = nil
            disposal = 0
            delay = 0
        case 0x3B:
            return gif
        default:
            throw GIFReadError.truncated(at: i)
        }
    }
    throw GIFReadError.truncated(at: i)
}

/// `count` indices from a bare LZW code stream (no sub-blocks) of minimum code size `m`: a coder's
/// output read back on its own.
public func decodeLZW(_ data: [UInt8], codeSize m: Int, count: Int) throws -> [UInt8] {
    try lzwDecode(data, codeSize: m, count: count, frame: 0)
}

/// GIF's variable-width LZW (GIF89a appendix F): `count` indices from the code stream.
private func lzwDecode(_ data: [UInt8], codeSize m: Int, count: Int, frame: Int) throws -> [UInt8] {
    let clear = 1 << m, end = clear + 1
    var prefix = [Int](repeating: -1, count: 4096), suffix = [UInt8](repeating: 0, count: 4096)
    var first = [UInt8](repeating: 0, count: 4096)
    for c in 0..<clear {
        suffix[c] = UInt8(c)
        first[c] = UInt8(c)
    }
    var out: [UInt8] = []
    out.reserveCapacity(count)
    var size = m + 1, next = clear + 2, previous = -1
    var bits = 0, held = 0, at = 0
    func string(_ code: Int) -> [UInt8] {
        var s: [UInt8] = []
        var c = code
        while c >= 0 {
            s.append(suffix[c])
            c = prefix[c]
        }
        return s.reversed()
    }
    while out.count < count {
        while held < size {
            guard at < data.count else { throw GIFReadError.badCode(frame: frame) }
            bits |= Int(data[at]) << held
            held += 8
            at += 1
        }
        let code = bits & (1 << size - 1)
        bits >>= size
        held -= size
        if code == clear {
            size = m + 1
            next = clear + 2
            previous = -1
            continue
        }
        if code == end { break }
        if previous < 0 {
            guard code < clear else { throw GIFReadError.badCode(frame: frame) }
            out.append(UInt8(code))
            previous = code
            continue
        }
        guard code <= next else { throw GIFReadError.badCode(frame: frame) }
        // A code not yet defined (the KwKwK case) is the previous string and its own first index.
        let s = code < next ? string(code) : string(previous) + [first[previous]]
        if next < 4096 {
            prefix[next] = previous
            suffix[next] = s[0]
            first[next] = first[previous]
            next += 1
            if next == 1 << size && size < 12 { size += 1 }
        }
        out += s
        previous = code
    }
    guard out.count >= count else { throw GIFReadError.badCode(frame: frame) }
    return Array(out.prefix(count))
}
