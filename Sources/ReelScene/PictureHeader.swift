/// A picture's pixel size as its header states it (PNG, JPEG, WebP, GIF), read without decoding: the
/// SVG importer lays an embedded picture out by it, and a clip counts its pictures' decoded memory by
/// it before FFmpeg decodes any (decoding is ReelMedia's, which the scene modules do not import).

/// Pictures' headers, read for their size alone.
public enum PictureHeader {
    /// A picture's size from its header: PNG's IHDR, JPEG's first SOFn, WebP's VP8/VP8L/VP8X chunk,
    /// GIF's logical screen. Nil when the bytes are none of these (or cut short).
    public static func pixelSize(of b: [UInt8]) -> (Int, Int)? {
        func be16(_ i: Int) -> Int? { i + 2 <= b.count ? Int(b[i]) << 8 | Int(b[i + 1]) : nil }
        func le16(_ i: Int) -> Int? { i + 2 <= b.count ? Int(b[i + 1]) << 8 | Int(b[i]) : nil }
        func le24(_ i: Int) -> Int? { i + 3 <= b.count ? Int(b[i + 2]) << 16 | Int(b[i + 1]) << 8 | Int(b[i]) : nil }
        func be32(_ i: Int) -> Int? {
            guard let hi = be16(i), let lo = be16(i + 2) else { return nil }
            return hi << 16 | lo
        }
        func bytes(_ i: Int, _ text: String) -> Bool {
            let t = Array(text.utf8)
            return i + t.count <= b.count && Array(b[i..<i + t.count]) == t
        }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            guard bytes(12, "IHDR"), let w = be32(16), let h = be32(20) else { return nil }
            return (w, h)
        }
        if b.starts(with: [0xFF, 0xD8]) {
            // Markers in order up to the first start-of-frame (C0–CF but for DHT C4, JPG C8, DAC CC).
            var i = 2
            while i + 1 < b.count {
                guard b[i] == 0xFF else { return nil }
                let marker = b[i + 1]
                if marker == 0xFF {
                    i += 1
                    continue
                }
                if marker == 0x01 || (0xD0...0xD8).contains(marker) {
                    i += 2
                    continue
                }
                if marker == 0xDA || marker == 0xD9 { return nil }
                guard let length = be16(i + 2), length >= 2 else { return nil }
                if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                    guard let h = be16(i + 5), let w = be16(i + 7) else { return nil }
                    return (w, h)
                }
                i += 2 + length
            }
            return nil
        }
        if bytes(0, "RIFF"), bytes(8, "WEBP") {
            if bytes(12, "VP8 "), b.count >= 30, b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A,
                let w = le16(26), let h = le16(28)
            {
                return (w & 0x3FFF, h & 0x3FFF)
            }
            if bytes(12, "VP8L"), b.count >= 25, b[20] == 0x2F {
                let bits = Int(b[21]) | Int(b[22]) << 8 | Int(b[23]) << 16 | Int(b[24]) << 24
                return ((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
            }
            if bytes(12, "VP8X"), let w = le24(24), let h = le24(27) { return (w + 1, h + 1) }
            return nil
        }
        if bytes(0, "GIF87a") || bytes(0, "GIF89a"), let w = le16(6), let h = le16(8) { return (w, h) }
        return nil
    }
}
