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
        pictureLocations[shown.name] = e.location
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
        guard let (w, h) = PictureHeader.pixelSize(of: bytes) else {
            if type == "image/svg+xml" || bytes.first == UInt8(ascii: "<") { return .svg }
            return .unreadable("holds no PNG, JPEG, WebP or GIF picture of a size it states")
        }
        guard w > 0, h > 0 else { return .unreadable("holds a picture of no pixels") }
        let uri = "data:\(type);base64," + String(decoding: compact, as: UTF8.self)
        return .picture(SVGPicture(uri: uri, width: w, height: h))
    }
}
