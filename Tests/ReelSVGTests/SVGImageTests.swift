/// SVG `<image>` read into layers, against values computed by hand: the picture's size from its
/// header (PNG, progressive JPEG, GIF, WebP lossless and lossy; pictures made with Pillow), the
/// viewport at x, y, width × height, SVG 2's automatic sizes from the picture's aspect, and
/// preserveAspectRatio's meet and slice (slice clipped to the viewport); what Reel cannot show left out
/// with a warning naming the line.
import Foundation
import ReelGeometry
import ReelScene
import Testing

@testable import ReelSVG

@Suite struct SVGImageTests {
    /// 4×2 RGB PNG: the left two columns red, the right two blue.
    static let redBlue =
        "iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAAGUlEQVR4nGP8z8DAwMDAyPCfgYGBiQEJAAAqNwIDlBYW1QAAAABJRU5ErkJggg=="
    /// 5×3 grey PNG, 12×5 progressive JPEG, 10×6 GIF and WebP (lossless and lossy).
    static let png = "iVBORw0KGgoAAAANSUhEUgAAAAUAAAADCAAAAAB+XZokAAAAEUlEQVR4nGPkZGBgYGBiQJAAAOEAD2PdMwAAAAAASUVORK5CYII="
    static let jpeg =
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/2wBDAQkJCQwLDBgNDRgyIRwhMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjL/wgARCAAFAAwDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAUAQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIQAxAAAAGDB//EABQQAQAAAAAAAAAAAAAAAAAAABD/2gAIAQEAAQUCP//EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQMBAT8Bf//EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQIBAT8Bf//EABQQAQAAAAAAAAAAAAAAAAAAABD/2gAIAQEABj8CP//EABQQAQAAAAAAAAAAAAAAAAAAABD/2gAIAQEAAT8hP//aAAwDAQACAAMAAAAQ8//EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQMBAT8Qf//EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQIBAT8Qf//EABQQAQAAAAAAAAAAAAAAAAAAABD/2gAIAQEAAT8QP//Z"
    static let gif = "R0lGODdhCgAGAIEAAAECAwAAAAAAAAAAACwAAAAACgAGAAAIDwABCBxIsKDBgwgTKiwYEAA7"
    static let webpLossless = "UklGRiAAAABXRUJQVlA4TBQAAAAvCUABAAdQgVQIIAAKmv7HiIj+Bw=="
    static let webpLossy = "UklGRiQAAABXRUJQVlA4IBgAAAAwAQCdASoKAAYAAUAmJaQAA3AA/v0gUAA="

    func svg(_ body: String) throws -> SVGImage {
        let text =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"300\" height=\"100\">\n\(body)\n</svg>"
        return try SVGImport.image(Data(text.utf8), file: "t.svg", name: "t")
    }

    func find(_ name: String, in layer: Layer) -> Layer? {
        if layer.name == name { return layer }
        for sub in layer.sublayers { if let found = find(name, in: sub) { return found } }
        return nil
    }

    func bytes(_ base64: String) -> [UInt8] { [UInt8](Data(base64Encoded: base64) ?? Data()) }

    @Test func sizesFromHeaders() {
        #expect(PictureHeader.pixelSize(of: bytes(Self.png)).map { [$0.0, $0.1] } == [5, 3])
        #expect(PictureHeader.pixelSize(of: bytes(Self.jpeg)).map { [$0.0, $0.1] } == [12, 5])
        #expect(PictureHeader.pixelSize(of: bytes(Self.gif)).map { [$0.0, $0.1] } == [10, 6])
        #expect(PictureHeader.pixelSize(of: bytes(Self.webpLossless)).map { [$0.0, $0.1] } == [10, 6])
        #expect(PictureHeader.pixelSize(of: bytes(Self.webpLossy)).map { [$0.0, $0.1] } == [10, 6])
        #expect(PictureHeader.pixelSize(of: Array(bytes(Self.png).prefix(20))) == nil)
        #expect(PictureHeader.pixelSize(of: Array("hello".utf8)) == nil)
    }

    /// x 20, y 10, 80 × 40 for a 4 × 2 picture: the same aspect, so the picture fills the viewport; the
    /// base64's line breaks are gone from the contents (the key the picture is decoded under).
    @Test func aViewportAtXYWidthHeight() throws {
        let wrapped = Self.redBlue.prefix(30) + "\n      " + Self.redBlue.dropFirst(30)
        let image = try svg(
            "<image id=\"pic\" x=\"20\" y=\"10\" width=\"80\" height=\"40\" xlink:href=\"data:image/png;base64,\n      \(wrapped)\"/>"
        )
        #expect(image.warnings.isEmpty, "\(image.warnings)")
        let viewport = try #require(find("t/pic/viewport", in: image.layer))
        #expect(viewport.position == Point(x: 20, y: 10) && viewport.bounds == Rect(x: 0, y: 0, width: 80, height: 40))
        #expect(!viewport.masksToBounds)
        let picture = try #require(find("t/pic/picture", in: image.layer))
        #expect(picture.contents == "data:image/png;base64," + Self.redBlue)
        #expect(picture.position == Point(x: 0, y: 0) && picture.bounds == Rect(x: 0, y: 0, width: 80, height: 40))
        #expect(picture.contentsGravity == .resize)
    }

    /// SVG 2: width 16 alone gives height 16 · 2/4 = 8; height 10 alone, width 20; neither, 4 × 2.
    @Test func automaticSizesKeepThePicturesAspect() throws {
        let href = "href=\"data:image/png;base64,\(Self.redBlue)\""
        let image = try svg(
            "<image id=\"a\" width=\"16\" \(href)/><image id=\"b\" height=\"10\" \(href)/><image id=\"c\" width=\"auto\" \(href)/>"
        )
        #expect(find("t/a/viewport", in: image.layer)?.bounds == Rect(x: 0, y: 0, width: 16, height: 8))
        #expect(find("t/b/viewport", in: image.layer)?.bounds == Rect(x: 0, y: 0, width: 20, height: 10))
        #expect(find("t/c/viewport", in: image.layer)?.bounds == Rect(x: 0, y: 0, width: 4, height: 2))
    }

    /// A 4 × 2 picture in a 100 × 100 viewport: meet scales by min(25, 50) = 25 to 100 × 50, xMaxYMax
    /// puts it 50 down; slice in a 50 × 100 one scales by max(12.5, 50) = 50 to 200 × 100, xMidYMid
    /// puts it (50 − 200) / 2 = −75 left, and clips; none stretches to 100 × 100.
    @Test func meetSliceAndNone() throws {
        let href = "href=\"data:image/png;base64,\(Self.redBlue)\""
        let image = try svg(
            """
            <image id="meet" width="100" height="100" preserveAspectRatio="xMaxYMax meet" \(href)/>
            <image id="slice" width="50" height="100" preserveAspectRatio="xMidYMid slice" \(href)/>
            <image id="none" width="100" height="100" preserveAspectRatio="none" \(href)/>
            """)
        let meet = try #require(find("t/meet/picture", in: image.layer))
        #expect(meet.position == Point(x: 0, y: 50) && meet.bounds.size == Size(width: 100, height: 50))
        #expect(find("t/meet/viewport", in: image.layer)?.masksToBounds == false)
        let slice = try #require(find("t/slice/picture", in: image.layer))
        #expect(slice.position == Point(x: -75, y: 0) && slice.bounds.size == Size(width: 200, height: 100))
        #expect(find("t/slice/viewport", in: image.layer)?.masksToBounds == true)
        let none = try #require(find("t/none/picture", in: image.layer))
        #expect(none.position == Point(x: 0, y: 0) && none.bounds.size == Size(width: 100, height: 100))
    }

    @Test func visibilityTransformAndOpacityOnTheGroup() throws {
        let href = "href=\"data:image/png;base64,\(Self.redBlue)\""
        let image = try svg(
            "<image id=\"p\" width=\"8\" visibility=\"hidden\" opacity=\"0.5\" transform=\"translate(3 4)\" \(href)/>")
        let group = try #require(find("t/p", in: image.layer))
        #expect(group.hidden && group.opacity == 0.5)
        #expect(group.transform.affine == Transform2D.translation(x: 3, y: 4))
    }

    @Test func whatCannotBeShownIsLeftOutWithAWarning() throws {
        let svgData = Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8).base64EncodedString()
        let image = try svg(
            """
            <image id="file" width="10" height="10" href="picture.png"/>
            <image id="svg" width="10" height="10" href="data:image/svg+xml;base64,\(svgData)"/>
            <image id="bad" width="10" height="10" href="data:image/png;base64,iVBO*#"/>
            <image id="text" width="10" height="10" href="data:text/plain;base64,aGVsbG8="/>
            <image id="nothing" width="10" height="10"/>
            """)
        #expect(image.warnings.count == 4, "\(image.warnings)")
        #expect(image.warnings.contains { $0.hasPrefix("line 2:") && $0.contains("picture.png") && $0.contains("not supported") })
        #expect(image.warnings.contains { $0.hasPrefix("line 3:") && $0.contains("SVG document is not supported") })
        #expect(image.warnings.contains { $0.hasPrefix("line 4:") && $0.contains("base64 data that is not valid") })
        #expect(image.warnings.contains { $0.hasPrefix("line 5:") && $0.contains("no PNG, JPEG, WebP or GIF") })
        for id in ["file", "svg", "bad", "text", "nothing"] { #expect(find("t/\(id)", in: image.layer) == nil) }
    }
}
