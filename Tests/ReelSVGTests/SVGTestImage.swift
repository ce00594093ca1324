/// The SVG suites' one way in: a document's text imported as `t.svg`, its layers named under `t`.
import Foundation
import ReelDocument

@testable import ReelSVG

func image(_ text: String) throws(DocumentError) -> SVGImage {
    try SVGImport.image(Data(text.utf8), file: "t.svg", name: "t")
}
