/// `data:` URIs (RFC 2397) holding a picture: the text split into its media type and its bytes, and
/// what kind of picture those bytes are.
import Foundation

/// A `data:` URI read: its declared media type and the bytes it carries (base64 or percent-encoded).
public struct DataURI: Sendable {
    /// The declared media type, lowercased, without parameters ("image/png"); "" when none is given.
    public var mediaType: String
    public var bytes: [UInt8]

    /// Longest URI read: the SVG file limit, since most come embedded in one (and a scene file's
    /// string would otherwise be the only bound on a buffer decoded in one piece).
    public static let maximumLength = 32 << 20

    /// Whether `text` is a `data:` URI rather than a file name (the scheme is case-insensitive).
    public static func isDataURI(_ text: String) -> Bool {
        text.utf8.prefix(5).map { $0 | 0x20 } == Array("data:".utf8)
    }

    /// The URI cut short for a message: a 3 MB image would otherwise fill the terminal.
    public static func abbreviated(_ text: String, keeping count: Int = 40) -> String {
        guard text.count > count else { return text }
        return "\(text.prefix(count))… (\(text.utf8.count) characters)"
    }

    public init(_ text: String, maximumLength: Int = DataURI.maximumLength) throws(MediaError) {
        let call = "data: URI"
        guard text.utf8.count <= maximumLength else {
            throw MediaError(
                call: call,
                message: "it is \(text.utf8.count >> 20) MiB long, above the limit of \(maximumLength >> 20) MiB")
        }
        guard Self.isDataURI(text) else { throw MediaError(call: call, message: "it does not start with \"data:\"") }
        let body = text.utf8.dropFirst(5)
        guard let comma = body.firstIndex(of: UInt8(ascii: ",")) else {
            throw MediaError(call: call, message: "it has no \",\" before its data")
        }
        let header = String(decoding: body[..<comma], as: UTF8.self).lowercased()
        var parameters = header.split(separator: ";", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let isBase64 = parameters.count > 1 && parameters.last == "base64"
        if isBase64 { parameters.removeLast() }
        mediaType = parameters.first ?? ""
        let payload = body[body.index(after: comma)...]
        if isBase64 {
            guard let decoded = Self.base64(payload) else {
                throw MediaError(call: call, message: "its base64 data is not valid (a character outside A–Z a–z 0–9 + / =)")
            }
            bytes = decoded
        } else {
            guard let decoded = Self.percentDecoded(payload) else {
                throw MediaError(call: call, message: "its data has a \"%\" not followed by two hexadecimal digits")
            }
            bytes = decoded
        }
    }

    /// Base64 with the whitespace SVG files wrap it in ignored, and missing padding allowed (browsers
    /// accept both); nil for any other character.
    static func base64(_ text: Substring.UTF8View) -> [UInt8]? {
        var compact = [UInt8]()
        compact.reserveCapacity(text.count)
        for c in text where !(c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C) { compact.append(c) }
        switch compact.count % 4 {
        case 2: compact += Array("==".utf8)
        case 3: compact.append(UInt8(ascii: "="))
        default: break
        }
        return Data(base64Encoded: Data(compact)).map { [UInt8]($0) }
    }

    static func percentDecoded(_ text: Substring.UTF8View) -> [UInt8]? {
        var out = [UInt8]()
        out.reserveCapacity(text.count)
        var i = text.startIndex
        func hex(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x41...0x46: c - 0x41 + 10
            case 0x61...0x66: c - 0x61 + 10
            default: nil
            }
        }
        while i < text.endIndex {
            let c = text[i]
            if c == UInt8(ascii: "%") {
                let j = text.index(after: i)
                guard j < text.endIndex, text.index(after: j) < text.endIndex, let hi = hex(text[j]),
                    let lo = hex(text[text.index(after: j)])
                else { return nil }
                out.append(hi << 4 | lo)
                i = text.index(j, offsetBy: 2)
            } else {
                out.append(c)
                i = text.index(after: i)
            }
        }
        return out
    }
}

/// The picture formats Reel decodes from memory, told apart by their first bytes (a declared media
/// type is often missing or wrong: `image/jpg`, `text/plain`, none at all).
public enum PictureFormat: String, Sendable {
    case png = "PNG"
    case jpeg = "JPEG"
    case webp = "WebP"
    case gif = "GIF"

    public init?(sniffing bytes: [UInt8]) {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) {
            self = .webp
        } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            self = .gif
        } else {
            return nil
        }
    }
}
