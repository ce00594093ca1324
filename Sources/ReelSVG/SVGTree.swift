/// An SVG file read into a tree of elements by Foundation's XMLParser (libxml2), never by hand: entity
/// references and external resources are not followed, and the size, element count and depth are
/// bounded, so a hostile file is refused quickly with its line and column.
import Foundation
import ReelDocument

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// One element: its local name, attributes, children and text (for `<style>`), with where it starts.
final class SVGElement {
    let name: String
    let attributes: [String: String]
    var children: [SVGElement] = []
    /// Unowned by the child: the tree is held from its root.
    weak var parent: SVGElement?
    var text = ""
    let location: SourceLocation

    /// The name of the character data inside a text element (no element has it).
    static let characters = "#text"
    /// The name of the stand-in element that carries one character's own x, y, dx, dy or rotate
    /// (`Importer.spreadPositionLists`; no SVG element has it, so no style sheet matches it).
    static let positionWrapper = "#position"
    /// The elements whose character data is drawn.
    static let textContainers: Set<String> = ["text", "tspan", "a", "textPath"]

    init(name: String, attributes: [String: String], location: SourceLocation) {
        self.name = name
        self.attributes = attributes
        self.location = location
    }
}

/// What an SVG file may hold before it is refused.
public enum SVGLimits {
    public static let maximumBytes = 32 << 20
    public static let maximumElements = 250_000
    public static let maximumDepth = 256
    /// How deep elements are drawn, uses and masks included: deeper ones are left out with a warning.
    /// Converting and drawing recurse once per level, and a worker thread's stack is small (512 KiB);
    /// design tools nest a few dozen levels at most.
    public static let maximumNesting = 64
    /// Layers that clip paths and masks may add to an import: each `clip-path` or `mask` reference is
    /// counted with everything its expansion makes (clip paths on clip paths multiply) before it is
    /// expanded, and one that would pass the limit leaves its element out. Masks are drawn as offscreen
    /// groups; 10,000 of them draw in about a second, where 100,000 (the element cap) took 13 s and
    /// 1 GiB in a debug build.
    public static let maximumMaskLayers = 10_000
    /// Markers drawn in one import (each a copy of its marker's content): a path of 100,000 vertices
    /// with a marker-mid would otherwise make that many copies.
    public static let maximumMarkers = 10_000
    /// Characters of an import's texts given their own x, y, dx, dy or rotate (after each element's
    /// first): each becomes a stand-in element, and each x a text layer of its own.
    public static let maximumPositionedCharacters = 20_000
    /// Layers an import's pattern paints may repeat, together: each tile counts its own layer and its
    /// content's (replicas inside it multiplied). What a frame draws is limited to
    /// `Scene.maximumDrawnLayers` (1,000,000) replicas included, and a file past it is refused; this
    /// leaves room for the rest. 4-unit hatching of one rect over a 1920 × 1080 drawing is 260,000.
    public static let maximumPatternLayers = 500_000
    /// Primitives drawn in one `<filter>`: each result is a picture of the filter region (up to twice
    /// the frame's size each way) held until the last primitive that reads it; the corpus's longest
    /// filter has 12.
    public static let maximumFilterPrimitives = 32
    /// The most numbers an feConvolveMatrix kernel may hold: each pixel of the region costs that many
    /// taps (225 = 15 × 15; the corpus's largest is 20 × 1).
    public static let maximumConvolveTaps = 225
}

/// Builds the element tree from XMLParser's events.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    var stack: [SVGElement] = []
    var root: SVGElement?
    var count = 0
    var refusal: (String, SourceLocation)?
    weak var parser: XMLParser?

    var here: SourceLocation { SourceLocation(line: parser?.lineNumber ?? 0, column: parser?.columnNumber ?? 0) }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        count += 1
        if count > SVGLimits.maximumElements {
            refusal = ("more than \(SVGLimits.maximumElements) elements", here)
            parser.abortParsing()
            return
        }
        if stack.count >= SVGLimits.maximumDepth {
            refusal = ("elements nested more than \(SVGLimits.maximumDepth) deep", here)
            parser.abortParsing()
            return
        }
        // xlink:href is read as href (SVG 2's own href wins when both are there, whatever their order);
        // other prefixed attributes keep their prefix, so `svg:href` is not an href.
        var local: [String: String] = [:]
        for (k, v) in attributes where !k.hasPrefix("xlink:") { local[k] = v }
        for (k, v) in attributes where k.hasPrefix("xlink:") {
            let name = String(k.dropFirst(6))
            if local[name] == nil { local[name] = v }
        }
        // An element of another XML namespace is kept (for the counts and the depth) under a name no
        // SVG element has; one with no namespace at all is taken as SVG, as browsers do for files that
        // forget the xmlns.
        let foreign = namespaceURI.map { !$0.isEmpty && $0 != "http://www.w3.org/2000/svg" } ?? false
        let element = SVGElement(
            name: foreign ? "{\(namespaceURI ?? "")}\(elementName)" : elementName, attributes: local, location: here)
        if let parent = stack.last {
            parent.children.append(element)
            element.parent = parent
        } else if root == nil {
            root = element
        }
        stack.append(element)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        _ = stack.popLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard let top = stack.last else { return }
        if !SVGElement.textContainers.contains(top.name) {
            // A style sheet's text, or an element's a `tref` may show.
            top.text += string
        } else {
            // Text and its tspans interleave: the characters are kept as children, in order.
            if let last = top.children.last, last.name == SVGElement.characters {
                last.text += string
            } else {
                let node = SVGElement(name: SVGElement.characters, attributes: [:], location: here)
                node.text = string
                node.parent = top
                top.children.append(node)
            }
        }
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        if let top = stack.last, top.name == "style" { top.text += String(decoding: CDATABlock, as: UTF8.self) }
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        refusal = ("the file declares an external entity \"\(name)\", which Reel does not read", here)
        parser.abortParsing()
    }
}

enum SVGTree {
    /// The root element of an SVG document.
    static func parse(_ data: Data, file: String) throws(DocumentError) -> SVGElement {
        guard !data.isEmpty else { throw DocumentError(file: file, message: "the file is empty", fix: "give an SVG file") }
        guard data.count <= SVGLimits.maximumBytes else {
            throw DocumentError(
                file: file, message: "the file is \(data.count >> 20) MiB, above the limit of \(SVGLimits.maximumBytes >> 20) MiB"
            )
        }
        // UTF-8 only: Foundation's XMLParser traps on some invalid sequences in names (found by fuzzing),
        // and an SVG in another encoding is rare enough to ask for a re-save.
        if let (line, column) = Self.invalidUTF8(data) {
            throw DocumentError(
                file: file, location: SourceLocation(line: line, column: column),
                message: "the file is not valid UTF-8 here", fix: "save the SVG as UTF-8")
        }
        // Entities are refused outright: an SVG needs none, and they are how "billion laughs" files grow.
        if let entity = data.range(of: Data("<!ENTITY".utf8)) {
            let prefix = data[..<entity.lowerBound]
            let line = prefix.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw DocumentError(
                file: file, location: SourceLocation(line: line, column: 1),
                message: "the file declares XML entities, which Reel does not expand",
                fix: "replace each entity reference with its text")
        }
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let builder = TreeBuilder()
        builder.parser = parser
        parser.delegate = builder
        let ok = parser.parse()
        if let (message, place) = builder.refusal {
            throw DocumentError(file: file, location: place, message: message)
        }
        // libxml2 recovers from some mismatched tags without failing: an element left open is an error.
        if ok, let open = builder.stack.last {
            throw DocumentError(
                file: file, location: SourceLocation(line: parser.lineNumber, column: parser.columnNumber),
                message: "not a readable SVG file: <\(open.name)> (line \(open.location.line)) is never closed")
        }
        guard ok, let root = builder.root else {
            // libxml2 says line 0 when it stopped before reading anything it could place.
            let place = parser.lineNumber > 0 ? SourceLocation(line: parser.lineNumber, column: parser.columnNumber) : nil
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "not well-formed XML"
            throw DocumentError(file: file, location: place, message: "not a readable SVG file: \(reason)")
        }
        guard root.name == "svg" else {
            throw DocumentError(
                file: file, location: root.location, message: "the root element is <\(root.name)>, not <svg>")
        }
        return root
    }

    /// Where the first byte that is not UTF-8 is (line and column, from 1), or nil when all is.
    static func invalidUTF8(_ data: Data) -> (Int, Int)? {
        var line = 1, column = 1
        var decoder = UTF8()
        var bytes = data.makeIterator()
        while true {
            switch decoder.decode(&bytes) {
            case .scalarValue(let s):
                if s == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput: return nil
            case .error: return (line, column)
            }
        }
    }
}
