/// The installed fonts, and how a scene's `font` names one of them: a PostScript name, a family with an
/// optional style, or nothing (never a silent substitute); near misses for a "did you mean", and the
/// font fontconfig falls back to for a character a font lacks.
import ReelDocument
import Synchronization

/// One face of a font file, with every name fontconfig knows it by.
public struct FontDescription: Sendable, Hashable {
    /// The first family name ("Inter" for Inter Semi Bold, which also answers to "Inter Semi Bold").
    public var family: String
    /// The first style name ("Semi Bold"; DejaVu calls its regular face "Book").
    public var style: String
    public var fullName: String
    public var postScriptName: String
    public var path: String
    /// The face in the file (a `.ttc` collection holds several).
    public var index: Int
    /// Every family name the face has, `family` first: typographic families list the weight's own family
    /// as well ("Inter", "Inter Semi Bold"), and each is a way a scene may name it.
    public var familyNames: [String]
    /// Every style name, `style` first, paired with the family names ("Semi Bold", "Regular").
    public var styleNames: [String]
    /// On the OpenType scale: 400 regular, 700 bold.
    public var weight: Int
    public var isItalic: Bool
    /// fontconfig's width: 100 normal, 75 condensed.
    public var width: Int
    /// A colour font (Noto Color Emoji's bitmaps), drawn as images rather than filled outlines.
    public var isColor: Bool

    public init(
        family: String, style: String, fullName: String, postScriptName: String, path: String, index: Int = 0,
        familyNames: [String]? = nil, styleNames: [String]? = nil, weight: Int = 400, isItalic: Bool = false,
        width: Int = 100, isColor: Bool = false
    ) {
        self.family = family
        self.style = style
        self.fullName = fullName
        self.postScriptName = postScriptName
        self.path = path
        self.index = index
        self.familyNames = familyNames ?? [family]
        self.styleNames = styleNames ?? [style]
        self.weight = weight
        self.isItalic = isItalic
        self.width = width
        self.isColor = isColor
    }

    /// How far the face is from a family's plain face: upright first, then normal width (a condensed face
    /// is a width of its own, not the family's regular), then weight 400.
    fileprivate var distanceFromRegular: (Int, Int, Int) { (isItalic ? 1 : 0, abs(width - 100), abs(weight - 400)) }

    /// "Family Style" for every pairing of its names.
    fileprivate var familyStyleNames: [String] { familyNames.flatMap { f in styleNames.map { "\(f) \($0)" } } }
}

public struct FontCatalog: Sendable {
    /// The fonts fontconfig lists, read once on first use.
    public static let installed = FontCatalog(fonts: Fontconfig.shared?.installedFonts() ?? [])

    /// Sorted by family, then weight, slant, width and style: the order `reel fonts` lists them in.
    public var fonts: [FontDescription]
    private let fallbacks = FallbackCache()

    public init(fonts: [FontDescription]) {
        self.fonts = fonts.sorted {
            let a = ($0.family.lowercased(), $0.weight, $0.isItalic ? 1 : 0, abs($0.width - 100), $0.style)
            let b = ($1.family.lowercased(), $1.weight, $1.isItalic ? 1 : 0, abs($1.width - 100), $1.style)
            return a != b ? a < b : ($0.path, $0.index) < ($1.path, $1.index)
        }
    }

    /// Resolves what a scene's `font` says: a PostScript name ("Inter-Bold"), a full name, or a family
    /// with an optional style ("Inter", "Inter Semi Bold Italic", "DejaVu Sans Bold"), case-insensitive;
    /// spaces and hyphens may be left out or swapped when that names faces of one family only. A family
    /// alone (or with "Regular") means its upright, normal-width face nearest weight 400. nil when nothing matches.
    public func font(named spec: String) -> FontDescription? {
        guard spec.utf8.count <= 256 else { return nil }
        if let exact = faces(named: Self.collapsed(spec), key: Self.collapsed).first { return exact }
        if Self.genericFamilies.contains(spec.lowercased()), let found = Fontconfig.shared?.generic(spec.lowercased()) {
            // A CSS generic family no font is named after: what fontconfig's configuration chooses.
            // One of this catalog's faces only: a catalog of given fonts does not reach the system's.
            return fonts.first { $0.path == found.path && $0.index == found.index }
        }
        let tolerant = faces(named: Self.squashed(spec), key: Self.squashed)
        // "Foo Bar" and "Foo-Bar" squash alike: the loose reading stands only if all it names is one family's.
        return Set(tolerant.map(\.family)).count == 1 ? tolerant.first : nil
    }

    /// The faces `target` names (keys compared with `key`), best first: by PostScript name, then full name,
    /// then family and style, then family alone.
    private func faces(named target: String, key: (String) -> String) -> [FontDescription] {
        guard !target.isEmpty else { return [] }
        var found: [(font: FontDescription, tier: Int, rank: Int)] = []
        for font in fonts {
            let tier: Int
            var rank = 0
            if key(font.postScriptName) == target {
                tier = 0
            } else if key(font.fullName) == target {
                tier = 1
            } else if let i = font.familyStyleNames.firstIndex(where: { key($0) == target }) {
                // A face's first names are its own; the later ones are shared with its siblings.
                (tier, rank) = (2, i / font.styleNames.count + i % font.styleNames.count)
            } else if font.familyNames.contains(where: { key($0) == target || key("\($0) Regular") == target }) {
                tier = 3
            } else {
                continue
            }
            found.append((font, tier, rank))
        }
        return found.sorted {
            let (a, b) = ($0.font.distanceFromRegular, $1.font.distanceFromRegular)
            if ($0.tier, $0.rank) != ($1.tier, $1.rank) { return ($0.tier, $0.rank) < ($1.tier, $1.rank) }
            if a != b { return a < b }
            return ($0.font.path, $0.font.index) < ($1.font.path, $1.font.index)
        }.map(\.font)
    }

    /// CSS's generic families, which fontconfig's configuration maps to installed families.
    public static let genericFamilies: Set<String> = ["serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui"]

    /// Names to suggest for a misspelt spec (families, "Family Style" names, full and PostScript names),
    /// nearest in spelling first, one per face name however it is spelt.
    public func suggestions(for spec: String, limit: Int = 3) -> [String] {
        let word = Array(Self.collapsed(spec))
        // No font name is that long: spare the edit distances (quadratic in the lengths).
        guard !word.isEmpty, word.count <= 64, limit > 0 else { return [] }
        let names = fonts.flatMap { $0.familyNames + $0.familyStyleNames + [$0.fullName, $0.postScriptName] }
        let near = Set(names).filter { !$0.isEmpty }.map { ($0, editDistance(word, Array(Self.collapsed($0)))) }
            .filter { $0.1 <= max(2, word.count / 3) }
            .sorted { ($0.1, $0.0.count, $0.0) < ($1.1, $1.0.count, $1.0) }
        var seen = Set<String>()
        var picked: [String] = []
        for (name, _) in near where picked.count < limit && seen.insert(Self.squashed(name)).inserted { picked.append(name) }
        return picked
    }

    /// The installed font fontconfig falls back to for `scalar` where `font` lacks it: the first face in
    /// its sorted list for the font's family, weight and slant whose character set holds the character
    /// (a colour font first for a character shown as emoji by default, such as U+1F600).
    /// Cached per character and font, so rendering threads may ask freely.
    /// `colour` asks for a colour font first whatever the character (one followed by U+FE0F, the emoji
    /// presentation selector, such as ❤️).
    public func fallback(for scalar: Unicode.Scalar, after font: FontDescription, colour: Bool = false) -> FontDescription? {
        let key = FallbackCache.Key(scalar: scalar, font: font, colour: colour)
        if let known = fallbacks.entries.withLock({ $0[key] }) { return known }
        let found = Fontconfig.shared?.fallback(for: scalar, after: font, colour: colour).map { found in
            fonts.first { $0.path == found.path && $0.index == found.index } ?? found
        }
        fallbacks.entries.withLock { $0[key] = .some(found) }
        return found
    }

    /// Fonts whose family, style, full or PostScript name contains `pattern` (case-insensitive; all of
    /// them for an empty pattern).
    public func matching(_ pattern: String) -> [FontDescription] {
        let p = Self.collapsed(pattern)
        guard !p.isEmpty else { return fonts }
        return fonts.filter { f in
            ([f.fullName, f.postScriptName] + f.familyNames + f.styleNames + f.familyStyleNames).contains {
                Self.collapsed($0).contains(p)
            }
        }
    }

    /// Lowercased, with runs of white space as one space.
    private static func collapsed(_ name: String) -> String {
        name.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Lowercased letters and digits only: "Inter-SemiBoldItalic" and "inter semi bold italic" agree.
    private static func squashed(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil })
    }

}

/// Fallback answers (nil too: a character no font has is asked about on every frame), shared by the
/// copies of a catalog.
private final class FallbackCache: Sendable {
    struct Key: Hashable {
        var scalar: Unicode.Scalar
        var font: FontDescription
        var colour: Bool
    }

    let entries = Mutex<[Key: FontDescription?]>([:])
}
