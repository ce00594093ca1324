/// SVG `<image>`: a picture embedded as a base64 `data:` URI, shown in its viewport (x, y, width,
/// height) as preserveAspectRatio places it; the picture's pixel size read from its header here, since
/// decoding is ReelMedia's (FFmpeg's) and happens later, when the clip is prepared.
import Foundation
import ReelGeometry
import ReelScene

extension Importer {
    /// The layer for an `<image>`: a group (which takes the element's transform, opacity and visibility)
    /// holding a layer whose `contents` is the data URI, placed and sized by preserveAspectRatio; with
    /// `slice`, inside a layer that clips to the viewport. Nil, with a warning, for what Reel cannot
    /// show (a file, an SVG picture, data that is not a picture).
    mutating func image(_ e: SVGElement, style: SVGStyle, name: String) -> Layer? {
        guard let href = e.attributes["href"]?.trimmingCharacters(in: .whitespacesAndNewlines), !href.isEmpty else {
            return nil
        }
        guard href.utf8.prefix(5).map({ $0 | 0x20 }) == Array("data:".utf8) else {
            // Its size and placement need the picture now, and the importer does not know where the SVG
            // file is (nor may a sandboxed render read beside it).
            warn(
                e,
                "<image> of a file (\(SVGPicture.abbreviated(href))) is not supported yet and is left out; embed it as a data: URI"
            )
            return nil
        }
        let picture: SVGPicture
        // Read once per element: the copies a `use` fan-out makes share one URI string.
        let reading = pictures[ObjectIdentifier(e)] ?? SVGPicture.read(href)
        pictures[ObjectIdentifier(e)] = reading
        switch reading {
        case .picture(let p): picture = p
        case .svg:
            warn(e, "<image> of an SVG document is not supported yet and is left out")
            return nil
        case .unreadable(let why):
            warn(e, "<image> is left out: its data: URI \(why)")
            return nil
        }
        guard picture.width <= Scene.maximumPixelArea / picture.height else {
            warn(
                e,
                "<image> is left out: its picture is \(picture.width)×\(picture.height) pixels, above the limit of \(Scene.maximumPixelArea / 1_000_000) megapixels"
            )
            return nil
        }
        let a = e.attributes
        let outer = style.viewport
        func length(_ key: String, of base: Double) -> Double? {
            SVGValues.length(a[key], percentOf: base, fontSize: style.fontSize)
        }
        // SVG 2: a width or height that is missing (or auto) follows the picture's own size and aspect.
        let iw = Double(picture.width), ih = Double(picture.height)
        let given = (length("width", of: outer.width), length("height", of: outer.height))
        let (w, h): (Double, Double)
        switch given {
        case (let gw?, let gh?): (w, h) = (gw, gh)
        case (let gw?, nil): (w, h) = (gw, gw * ih / iw)
        case (nil, let gh?): (w, h) = (gh * iw / ih, gh)
        case (nil, nil): (w, h) = (iw, ih)
        }
        guard w > 0, h > 0, w.isFinite, h.isFinite else { return nil }
        let x = length("x", of: outer.width) ?? 0, y = length("y", of: outer.height) ?? 0

        // The picture as a viewBox of its pixels fitted into the viewport, as for an svg element.
        let aspect = a["preserveAspectRatio"]?.trimmingCharacters(in: .whitespaces)
        let fit = Self.fit(viewBox: [0, 0, iw, ih], into: Size(width: w, height: h), aspect)
        var shown = Layer(name: unique("\(name)/picture"))
        shown.contents = picture.uri
        shown.contentsGravity = .resize
        shown.anchorPoint = .zero
        shown.bounds = Rect(x: 0, y: 0, width: iw * fit.a, height: ih * fit.d)
        shown.position = Point(x: fit.tx, y: fit.ty)

        var viewport = Layer(name: unique("\(name)/viewport"))
        viewport.anchorPoint = .zero
        viewport.position = Point(x: x, y: y)
        viewport.bounds = Rect(x: 0, y: 0, width: w, height: h)
        // Only `slice` overflows the viewport; `meet` and `none` stay inside it anyway.
        viewport.masksToBounds = aspect.map { $0.split(separator: " ").contains("slice") } ?? false
        viewport.sublayers = [shown]

        var layer = Layer(name: name)
        layer.sublayers = [viewport]
        layer.hidden = !style.visible
        return layer
    }
}

/// An embedded picture as the importer needs it: the URI to hand on (its base64 unwrapped) and the
/// picture's size in pixels.
struct SVGPicture {
    var uri: String
    var width: Int
    var height: Int

    enum Reading {
        case picture(SVGPicture)
        case svg
        case unreadable(String)
    }

    static func abbreviated(_ text: String) -> String {
        text.count > 40 ? "\(text.prefix(40))…" : text
    }

    /// Reads a `data:` URI: base64 PNG, JPEG, WebP or GIF, whatever media type it declares (the bytes
    /// decide, as browsers and resvg do: `image/jpg` and no type at all are common).
    static func read(_ href: String) -> Reading {
        let body = href.utf8.dropFirst(5)
        guard let comma = body.firstIndex(of: UInt8(ascii: ",")) else { return .unreadable("has no \",\" before its data") }
        let header = String(decoding: body[..<comma], as: UTF8.self).lowercased().filter { !$0.isWhitespace }
        let parameters = header.split(separator: ";", omittingEmptySubsequences: false)
        let type = parameters.first.map(String.init) ?? ""
        guard parameters.count > 1, parameters.last == "base64" else {
            return type == "image/svg+xml" ? .svg : .unreadable("is not base64 (only base64 pictures are read)")
        }
        // The whitespace SVG files wrap base64 in goes: the URI is the layer's contents, and its key.
        var compact = [UInt8]()
        compact.reserveCapacity(body.count - body.distance(from: body.startIndex, to: comma))
        for c in body[body.index(after: comma)...] where !(c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C) {
            compact.append(c)
        }
        var padded = compact
        if padded.count % 4 == 2 { padded += Array("==".utf8) } else if padded.count % 4 == 3 { padded.append(UInt8(ascii: "=")) }
        guard let data = Data(base64Encoded: Data(padded)) else { return .unreadable("has base64 data that is not valid") }
        let bytes = [UInt8](data)
        guard let (w, h) = pixelSize(of: bytes) else {
            if type == "image/svg+xml" || bytes.first == UInt8(ascii: "<") { return .svg }
            return .unreadable("holds no PNG, JPEG, WebP or GIF picture of a size it states")
        }
        guard w > 0, h > 0 else { return .unreadable("holds a picture of no pixels") }
        let uri = "data:\(type);base64," + String(decoding: compact, as: UTF8.self)
        return .picture(SVGPicture(uri: uri, width: w, height: h))
    }

    /// A picture's size from its header: PNG's IHDR, JPEG's first SOFn, WebP's VP8/VP8L/VP8X chunk,
    /// GIF's logical screen. Nil when the bytes are none of these (or cut short).
    static func pixelSize(of b: [UInt8]) -> (Int, Int)? {
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
