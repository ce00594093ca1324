/// Font names resolved against the installed fonts (expected files from `fc-list`, which lists the
/// packages scripts/setup.sh installs: fonts-inter, fonts-dejavu-core, fonts-noto-core,
/// fonts-noto-color-emoji), and the resolution rules on a catalog made by hand, which run anywhere.
import Dispatch
import Foundation
import ReelText
import Testing

@Suite struct FontCatalogTests {
    /// The installed catalog when it has every one of `families`; otherwise nil, saying what is missing.
    static func installed(_ families: String..., by test: String = #function) -> FontCatalog? {
        let catalog = FontCatalog.installed
        let missing = families.filter { family in !catalog.fonts.contains { $0.familyNames.contains(family) } }
        guard missing.isEmpty else {
            print(
                "FontCatalogTests.\(test): \(missing.joined(separator: ", ")) not installed (scripts/setup.sh installs it); skipped"
            )
            return nil
        }
        return catalog
    }

    static func file(_ font: FontDescription?) -> String? { font.map { URL(fileURLWithPath: $0.path).lastPathComponent } }

    @Test func namesResolveToTheFacesFcListShows() throws {
        guard let catalog = Self.installed("Inter", "DejaVu Sans", "Noto Color Emoji") else { return }
        let expected = [
            "Inter": "Inter-Regular.otf", "Inter Bold": "Inter-Bold.otf", "Inter-Bold": "Inter-Bold.otf",
            "inter bold": "Inter-Bold.otf", "  Inter   BOLD ": "Inter-Bold.otf",
            "Inter Semi Bold Italic": "Inter-SemiBoldItalic.otf", "Inter-SemiBoldItalic": "Inter-SemiBoldItalic.otf",
            "Inter SemiBold Italic": "Inter-SemiBoldItalic.otf", "inter-semi-bold-italic": "Inter-SemiBoldItalic.otf",
            "Inter Semi Bold": "Inter-SemiBold.otf", "Inter Regular": "Inter-Regular.otf",
            "Inter Display": "InterDisplay-Regular.otf", "Inter Display Black": "InterDisplay-Black.otf",
            // DejaVu calls its regular face "Book", and its condensed faces are of family "DejaVu Sans" too.
            "DejaVu Sans": "DejaVuSans.ttf", "DejaVu Sans Bold": "DejaVuSans-Bold.ttf", "DejaVuSans-Bold": "DejaVuSans-Bold.ttf",
            "DejaVu Sans Book": "DejaVuSans.ttf", "DejaVu Sans Regular": "DejaVuSans.ttf",
            "DejaVu Sans Condensed Bold": "DejaVuSansCondensed-Bold.ttf", "Noto Color Emoji": "NotoColorEmoji.ttf",
        ]
        for (spec, file) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(Self.file(catalog.font(named: spec)) == file, "\"\(spec)\"")
        }
        #expect(catalog.font(named: "Noto Color Emoji")?.isColor == true)
        #expect(catalog.font(named: "Inter Bold")?.weight == 700)
        #expect(catalog.font(named: "Inter Semi Bold Italic")?.isItalic == true)
    }

    @Test func unknownNamesAreNilWithSuggestions() throws {
        guard let catalog = Self.installed("Inter") else { return }
        for spec in ["Intr Bold", "Inter Bold Bold", "Inter Book", "", "   ", "-", String(repeating: "Inter ", count: 100)] {
            #expect(catalog.font(named: spec) == nil, "\"\(spec)\"")
        }
        #expect(catalog.suggestions(for: "Intr Bold").first == "Inter Bold")
        #expect(catalog.suggestions(for: "Intr").first == "Inter")
        #expect(catalog.suggestions(for: "Intr Bold", limit: 1).count == 1)
        #expect(catalog.suggestions(for: "qqqqqqqqqqqq").isEmpty)
    }

    /// Typographic families: fontconfig lists "Inter Medium" as a second family with "Regular" as its
    /// style; every name is kept, the first ones are the face's own.
    @Test func everyNameIsKept() throws {
        guard let catalog = Self.installed("Inter") else { return }
        let medium = try #require(catalog.font(named: "Inter-Medium"))
        #expect(medium.family == "Inter" && medium.style == "Medium")
        #expect(medium.familyNames == ["Inter", "Inter Medium"])
        #expect(medium.styleNames == ["Medium", "Regular"])
        #expect(catalog.font(named: "Inter Medium Regular") == medium)
        #expect(catalog.font(named: "Inter Medium") == medium)
        #expect(medium.fullName == "Inter Medium" && medium.postScriptName == "Inter-Medium" && medium.index == 0)
    }

    @Test func listingIsSortedByFamilyThenWeight() throws {
        guard let catalog = Self.installed("Inter") else { return }
        let inter = catalog.fonts.filter { $0.family == "Inter" }
        #expect(inter.count == 18)
        #expect(inter.map(\.weight) == inter.map(\.weight).sorted())
        #expect(inter.prefix(2).map(\.postScriptName) == ["Inter-Thin", "Inter-ThinItalic"])
        let families = catalog.fonts.map { $0.family.lowercased() }
        #expect(families == families.sorted())
        #expect(catalog.matching("").count == catalog.fonts.count)
        // "Inter Display Semi Bold" does not contain "inter semi"; its PostScript name has "semibolditalic".
        #expect(catalog.matching("INTER SEMI").map(\.postScriptName) == ["Inter-SemiBold", "Inter-SemiBoldItalic"])
        #expect(
            catalog.matching("semibolditalic").map(\.postScriptName) == ["Inter-SemiBoldItalic", "InterDisplay-SemiBoldItalic"])
        #expect(catalog.matching("no such font anywhere").isEmpty)
    }

    /// Whatever fontconfig picks, the picked file must draw the character (HarfBuzz's cmap lookup, not
    /// fontconfig's own charset, is the check), and Inter must indeed lack it.
    @Test func fallbackHasTheCharacter() throws {
        guard let catalog = Self.installed("Inter", "Noto Color Emoji") else { return }
        let inter = try #require(catalog.font(named: "Inter"))
        let interFace = try FontFace(path: inter.path, index: inter.index)
        #expect(interFace.hasGlyph(for: "A"))
        for scalar: Unicode.Scalar in ["\u{05D0}", "\u{0915}", "\u{0628}", "\u{1F600}"] {
            #expect(!interFace.hasGlyph(for: scalar))
            let fallback = try #require(catalog.fallback(for: scalar, after: inter), "U+\(String(scalar.value, radix: 16))")
            #expect(fallback != inter)
            #expect(catalog.fonts.contains(fallback))
            #expect(try FontFace(path: fallback.path, index: fallback.index).hasGlyph(for: scalar), "\(fallback.path)")
        }
        // DejaVu Sans has a black-and-white U+1F600: a character shown as emoji asks for colour first.
        #expect(catalog.fallback(for: "\u{1F600}", after: inter)?.isColor == true)
        // No font has a private-use character: nil, and nil again from the cache.
        #expect(catalog.fallback(for: "\u{10FFFD}", after: inter) == nil)
        #expect(catalog.fallback(for: "\u{10FFFD}", after: inter) == nil)
    }

    /// Rendering threads ask at once: every answer is the same (the cache is behind a lock).
    @Test func fallbackFromManyThreads() throws {
        guard let catalog = Self.installed("Inter") else { return }
        let inter = try #require(catalog.font(named: "Inter"))
        let scalars: [Unicode.Scalar] = ["\u{05D0}", "\u{05D1}", "\u{0628}", "\u{0915}", "\u{0E01}", "\u{1F600}"]
        let expected = scalars.map { FontCatalog(fonts: catalog.fonts).fallback(for: $0, after: inter) }
        let answers = Answers(count: 64)
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            answers.set(i, catalog.fallback(for: scalars[i % scalars.count], after: inter))
        }
        for i in 0..<64 { #expect(answers.get(i) == expected[i % scalars.count]) }
    }

    // MARK: Rules on a catalog made by hand

    static func face(_ family: String, _ style: String, _ ps: String, weight: Int = 400, italic: Bool = false, width: Int = 100)
        -> FontDescription
    {
        FontDescription(
            family: family, style: style, fullName: "\(family) \(style)", postScriptName: ps, path: "/fonts/\(ps).otf",
            weight: weight, isItalic: italic, width: width)
    }

    @Test func familyAloneIsItsUprightFaceNearest400() {
        let catalog = FontCatalog(fonts: [
            Self.face("Brand", "Italic", "Brand-Italic", italic: true),
            Self.face("Brand", "Condensed", "Brand-Condensed", width: 75),
            Self.face("Brand", "Medium", "Brand-Medium", weight: 500),
            Self.face("Brand", "Book", "Brand-Book", weight: 380),
            Self.face("Narrow", "Bold", "Narrow-Bold", weight: 700),
            Self.face("Narrow", "Light Italic", "Narrow-LightItalic", weight: 300, italic: true),
        ])
        // Normal width before weight: a condensed face is a width of the family, not its regular.
        #expect(catalog.font(named: "brand")?.postScriptName == "Brand-Book")
        #expect(catalog.font(named: "Brand Regular")?.postScriptName == "Brand-Book")
        #expect(catalog.font(named: "Narrow")?.postScriptName == "Narrow-Bold")
        #expect(
            catalog.fonts.map(\.postScriptName) == [
                "Brand-Book", "Brand-Condensed", "Brand-Italic", "Brand-Medium", "Narrow-LightItalic", "Narrow-Bold",
            ])
    }

    /// Leaving out spaces and hyphens is allowed only while it names faces of one family; spelt exactly,
    /// a PostScript name comes first, then a full name, then family and style, then a family.
    @Test func squashedNamesMustBeUnambiguous() {
        let catalog = FontCatalog(fonts: [
            Self.face("Foo Bar", "Regular", "FooBar-Regular"),
            Self.face("Foo", "Bar", "Foo-Bar"),
            Self.face("Solo Sans", "Bold", "SoloSans-Bold", weight: 700),
        ])
        #expect(catalog.font(named: "Foo Bar")?.postScriptName == "Foo-Bar")  // a full name before a family
        #expect(catalog.font(named: "Foo Bar Regular")?.postScriptName == "FooBar-Regular")
        #expect(catalog.font(named: "foo-bar")?.postScriptName == "Foo-Bar")  // exact: the PostScript name
        #expect(catalog.font(named: "foobar") == nil)  // "Foo Bar" or "Foo" "Bar"
        #expect(catalog.font(named: "solosans bold")?.postScriptName == "SoloSans-Bold")
        #expect(catalog.font(named: "Solo-Sans-Bold")?.postScriptName == "SoloSans-Bold")
    }
}

/// Answers written by concurrent workers, one slot each.
private final class Answers: @unchecked Sendable {
    private var slots: [FontDescription?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ i: Int, _ value: FontDescription?) { lock.withLock { slots[i] = value } }
    func get(_ i: Int) -> FontDescription? { lock.withLock { slots[i] } }
}

/// CSS's generic families resolve as fontconfig's configuration says: the face `fc-match` (fontconfig's
/// own tool, an independent reading of the same configuration) names for each.
@Suite struct GenericFamilyTests {
    @Test func genericFamiliesAreFontconfigsChoice() throws {
        for family in ["serif", "sans-serif", "monospace"] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/fc-match")
            p.arguments = ["-f", "%{file}", family]
            let out = Pipe()
            p.standardOutput = out
            guard (try? p.run()) != nil else {
                print("GenericFamilyTests: /usr/bin/fc-match is not installed; skipped")
                return
            }
            p.waitUntilExit()
            let file = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            guard !file.isEmpty, FontCatalog.installed.fonts.contains(where: { $0.path == file }) else { continue }
            #expect(FontCatalog.installed.font(named: family)?.path == file, "\(family)")
        }
    }
}
