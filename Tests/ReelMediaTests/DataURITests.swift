/// Pictures decoded from `data:` URIs, against the pixels they were made from: small PNG, JPEG, GIF and
/// WebP files written with Pillow (the base64 below; values chosen by hand), decoded to premultiplied
/// RGBA; and the mistakes refused with a message that says which (bad base64, not a picture, an SVG,
/// too many pixels, too long a URI).
import ReelTestSupport
import Testing

@testable import ReelMedia

@Suite struct DataURITests {
    /// 2×2 RGBA PNG: opaque red, opaque green, blue at alpha 128, white at alpha 0.
    static let rgbaPNG =
        "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAF0lEQVR4nAXBAQEAAACCIKb33EAkoVUORk4IeXhoyZkAAAAASUVORK5CYII="
    /// 3×1 8-bit greyscale PNG: 0, 100, 255.
    static let greyPNG = "iVBORw0KGgoAAAANSUhEUgAAAAMAAAABCAAAAAA+i0toAAAADElEQVR4nGNgSPkPAAHLAWRRDtICAAAAAElFTkSuQmCC"
    /// 3×1 16-bit greyscale PNG: 0x0000, 0x8080, 0xFFFF.
    static let grey16PNG = "iVBORw0KGgoAAAANSUhEUgAAAAMAAAABEAAAAABuG5crAAAAD0lEQVR4nGNgYGho+P8fAAaEAv9GYN62AAAAAElFTkSuQmCC"
    /// 16×8 JPEG (quality 95, no chroma subsampling), all (200, 40, 90).
    static let flatJPEG =
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoKCgoKBggLDAsKDAkKCgr/2wBDAQICAgICAgUDAwUKBwYHCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgr/wAARCAAIABADAREAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwD53rnP9MAoA//Z"
    /// 10×6 GIF and lossless WebP, all (1, 2, 3).
    static let flatGIF = "R0lGODdhCgAGAIEAAAECAwAAAAAAAAAAACwAAAAACgAGAAAIDwABCBxIsKDBgwgTKiwYEAA7"
    static let flatWebP = "UklGRiAAAABXRUJQVlA4TBQAAAAvCUABAAdQgVQIIAAKmv7HiIj+Bw=="
    /// 100×100 greyscale PNG (10 000 pixels), for the pixel limit.
    static let png100 =
        "iVBORw0KGgoAAAANSUhEUgAAAGQAAABkCAAAAABVicqIAAAAP0lEQVR4nO3NMQEAAAgDIPWxf2NTzAsK0Ft583BIJBKJRCKRSCQSiUQikUgkEolEIpFIJBKJRCKRSCQSiUQSdqXZAM/Ne22BAAAAAElFTkSuQmCC"

    func message(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "(no error)"
        } catch let error as MediaError {
            return error.description
        } catch {
            return "not a MediaError: \(error)"
        }
    }

    /// Premultiplied: blue at alpha 128 is (0, 0, round(255·128/255) = 128, 128); alpha 0 is all zero.
    @Test func anRGBAPNGPremultiplied() throws {
        let image = try ImageFile.read(dataURI: "data:image/png;base64," + Self.rgbaPNG)
        #expect(image.width == 2 && image.height == 2)
        #expect(image.rgba == [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 128, 128, 0, 0, 0, 0])
    }

    /// Grey g is (g, g, g, 255); 16-bit 0x8080 is 128 · 257, so 128 in 8 bits.
    @Test func greyscalePNGsOf8And16Bits() throws {
        let grey = try ImageFile.read(dataURI: "data:image/png;base64," + Self.greyPNG)
        #expect(grey.rgba == [0, 0, 0, 255, 100, 100, 100, 255, 255, 255, 255, 255])
        let deep = try ImageFile.read(dataURI: "data:image/png;base64," + Self.grey16PNG)
        #expect(deep.width == 3 && deep.height == 1)
        #expect(deep.rgba == [0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 255])
    }

    /// A flat JPEG block keeps only its DC coefficient: within 3 of (200, 40, 90) after YCbCr rounding
    /// both ways. The media type may be image/jpeg, image/jpg or missing; the bytes decide.
    @Test func aJPEGWhateverItsDeclaredType() throws {
        for prefix in ["data:image/jpeg;base64,", "data:image/jpg;base64,", "data:;base64,", "DATA:text/plain;BASE64,"] {
            let image = try ImageFile.read(dataURI: prefix + Self.flatJPEG)
            #expect(image.width == 16 && image.height == 8)
            for i in stride(from: 0, to: image.rgba.count, by: 4) {
                let px = Array(image.rgba[i..<i + 4])
                let near =
                    abs(Int(px[0]) - 200) <= Tolerance.yCbCrRoundTripLevels
                    && abs(Int(px[1]) - 40) <= Tolerance.yCbCrRoundTripLevels
                    && abs(Int(px[2]) - 90) <= Tolerance.yCbCrRoundTripLevels
                #expect(near && px[3] == 255, "\(prefix) pixel \(i / 4): \(px)")
            }
        }
    }

    /// Base64 wrapped over lines (as SVG files do) and without its padding; GIF and WebP; and the
    /// same GIF percent-encoded instead of base64.
    @Test func wrappedBase64GIFWebPAndPercentEncoding() throws {
        let wrapped = "data:image/png;base64,\n  " + Self.rgbaPNG.prefix(40) + "\n  " + Self.rgbaPNG.dropFirst(40).dropLast(1)
        #expect(try ImageFile.read(dataURI: String(wrapped)).rgba.prefix(4) == [255, 0, 0, 255])
        let flat = [UInt8]((0..<60).flatMap { _ in [1, 2, 3, 255] as [UInt8] })
        let gif = try ImageFile.read(dataURI: "data:image/gif;base64," + Self.flatGIF)
        #expect(gif.width == 10 && gif.height == 6 && gif.rgba == flat)
        let webp = try ImageFile.read(dataURI: "data:image/webp;base64," + Self.flatWebP)
        #expect(webp.width == 10 && webp.height == 6 && webp.rgba == flat)
        let bytes = try DataURI("data:image/gif;base64," + Self.flatGIF).bytes
        let percent = "data:image/gif," + bytes.map { "%" + String($0, radix: 16).uppercased().leftPadded() }.joined()
        #expect(try ImageFile.read(dataURI: percent).rgba == flat)
    }

    @Test func mistakesSayWhich() throws {
        let badBase64 = message { _ = try ImageFile.read(dataURI: "data:image/png;base64,iVBO*#RK5CYII=") }
        #expect(badBase64.contains("base64 data is not valid"), "\(badBase64)")
        let text = message { _ = try ImageFile.read(dataURI: "data:text/plain;base64,aGVsbG8gd29ybGQ=") }
        #expect(text.contains("not a PNG, JPEG, WebP or GIF picture (declared text/plain)"), "\(text)")
        let svg = message { _ = try ImageFile.read(dataURI: "data:image/svg+xml;base64,PHN2Zy8+") }
        #expect(svg.contains("holds an SVG document"), "\(svg)")
        let noComma = message { _ = try ImageFile.read(dataURI: "data:image/png;base64") }
        #expect(noComma.contains("no \",\""), "\(noComma)")
        let badPercent = message { _ = try ImageFile.read(dataURI: "data:image/gif,GIF89a%G0") }
        #expect(badPercent.contains("\"%\" not followed"), "\(badPercent)")
        // A PNG cut short after its header: FFmpeg's own words, and what might be the cause.
        let cut = message { _ = try ImageFile.read(dataURI: "data:image/png;base64," + Self.png100.prefix(48)) }
        #expect(cut.contains("not a PNG picture FFmpeg can decode"), "\(cut)")
    }

    /// 100 × 100 = 10 000 pixels: decoded under a limit of 10 000, refused under 9 999 (by its decoded
    /// size), and under 1 000 refused by FFmpeg from its header, before decoding.
    @Test func thePixelLimit() throws {
        let uri = "data:image/png;base64," + Self.png100
        let image = try ImageFile.read(dataURI: uri, maximumPixels: 10_000)
        #expect(image.width == 100 && image.rgba.prefix(4) == [7, 7, 7, 255])
        let justOver = message { _ = try ImageFile.read(dataURI: uri, maximumPixels: 9_999) }
        #expect(justOver.contains("the picture is 100×100 pixels, above the limit of 9999 pixels"), "\(justOver)")
        let farOver = message { _ = try ImageFile.read(dataURI: uri, maximumPixels: 1_000) }
        #expect(farOver.contains("avcodec_send_packet(png)") && farOver.contains("larger than 1000 pixels"), "\(farOver)")
    }

    /// 32 MiB and one byte is refused before any decoding; the message names the limit, not the URI.
    @Test func theLengthLimit() {
        let long = "data:image/png;base64," + String(repeating: "A", count: DataURI.maximumLength)
        let refused = message { _ = try ImageFile.read(dataURI: long) }
        #expect(refused.contains("above the limit of 32 MiB") && refused.count < 200, "\(refused.prefix(200))")
        #expect(DataURI.abbreviated(long).count < 80)
        #expect(DataURI.abbreviated("data:,x") == "data:,x")
    }
}

extension String {
    fileprivate func leftPadded() -> String { count == 1 ? "0" + self : self }
}
