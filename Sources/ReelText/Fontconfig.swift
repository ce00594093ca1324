/// fontconfig behind one owner: its configuration loaded once, the installed faces it lists, and its
/// sorted fallback list for a character. The only file in ReelText that calls fontconfig.
internal import CText
import Synchronization

final class Fontconfig: @unchecked Sendable {
    /// The system's configuration and fonts, loaded on first use; nil when fontconfig cannot load one
    /// (then no font is installed as far as Reel knows).
    static let shared = Fontconfig()

    private let config: OpaquePointer
    // Fallback sorts run one at a time: fontconfig's thread safety has varied between versions, and the
    // catalog caches their answers, so rendering threads rarely wait here.
    private let sorting = Mutex(())

    private init?() {
        guard let config = FcInitLoadConfigAndFonts() else { return nil }
        self.config = config
    }

    deinit { FcConfigDestroy(config) }

    /// Every face fontconfig knows, one description each.
    func installedFonts() -> [FontDescription] {
        guard let pattern = FcPatternCreate() else { return [] }
        defer { FcPatternDestroy(pattern) }
        guard let objects = FcObjectSetCreate() else { return [] }
        defer { FcObjectSetDestroy(objects) }
        for object in [
            FC_FAMILY, FC_STYLE, FC_FULLNAME, FC_POSTSCRIPT_NAME, FC_FILE, FC_INDEX, FC_WEIGHT, FC_SLANT, FC_WIDTH, FC_COLOR,
        ] {
            FcObjectSetAdd(objects, object)
        }
        guard let set = FcFontList(config, pattern, objects) else { return [] }
        defer { FcFontSetDestroy(set) }
        return (0..<Int(set.pointee.nfont)).compactMap { set.pointee.fonts[$0].flatMap(Self.description(of:)) }
    }

    /// The first face in fontconfig's fallback order for `font` whose character set holds `scalar`,
    /// other than `font` itself.
    func fallback(for scalar: Unicode.Scalar, after font: FontDescription, colour: Bool) -> FontDescription? {
        sorting.withLock { _ in sortedFallback(for: scalar, after: font, colour: colour) }
    }

    /// The face fontconfig's configuration gives a CSS generic family ("serif", "monospace", "cursive"…):
    /// the system's, or the user's, choice.
    func generic(_ family: String) -> FontDescription? {
        sorting.withLock { _ in
            guard let pattern = FcPatternCreate() else { return nil }
            defer { FcPatternDestroy(pattern) }
            family.withCString { name in
                name.withMemoryRebound(to: FcChar8.self, capacity: family.utf8.count + 1) {
                    _ = FcPatternAddString(pattern, FC_FAMILY, $0)
                }
            }
            FcConfigSubstitute(config, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            guard let face = FcFontMatch(config, pattern, &result) else { return nil }
            defer { FcPatternDestroy(face) }
            return Self.description(of: face)
        }
    }

    private func sortedFallback(for scalar: Unicode.Scalar, after font: FontDescription, colour: Bool) -> FontDescription? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        guard let charset = FcCharSetCreate() else { return nil }
        defer { FcCharSetDestroy(charset) }  // the pattern holds its own reference
        FcCharSetAddChar(charset, scalar.value)
        FcPatternAddCharSet(pattern, FC_CHARSET, charset)
        // The family, weight and slant too, so that a bold italic line falls back to a bold italic face
        // where the fallback family has one.
        for family in font.familyNames {
            family.withCString { name in
                name.withMemoryRebound(to: FcChar8.self, capacity: family.utf8.count + 1) {
                    _ = FcPatternAddString(pattern, FC_FAMILY, $0)
                }
            }
        }
        FcPatternAddDouble(pattern, FC_WEIGHT, FcWeightFromOpenTypeDouble(Double(font.weight)))
        FcPatternAddInteger(pattern, FC_SLANT, font.isItalic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN)
        // fontconfig ranks colour before coverage: asked for it, a colour emoji font comes ahead of DejaVu
        // Sans, whose black-and-white smileys it would otherwise pick for a character shown as emoji by default.
        if colour || scalar.properties.isEmojiPresentation { FcPatternAddBool(pattern, FC_COLOR, FcTrue) }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let set = FcFontSort(config, pattern, FcFalse, nil, &result) else { return nil }
        defer { FcFontSetDestroy(set) }
        for i in 0..<Int(set.pointee.nfont) {
            var chars: OpaquePointer?
            guard let face = set.pointee.fonts[i], FcPatternGetCharSet(face, FC_CHARSET, 0, &chars) == FcResultMatch,
                FcCharSetHasChar(chars, scalar.value) != 0, let found = Self.description(of: face),
                found.path != font.path || found.index != font.index
            else { continue }
            return found
        }
        return nil
    }

    private static func description(of face: OpaquePointer) -> FontDescription? {
        func strings(_ object: String) -> [String] {
            var all: [String] = []
            var value: UnsafeMutablePointer<FcChar8>?
            while FcPatternGetString(face, object, Int32(all.count), &value) == FcResultMatch, let value {
                all.append(String(cString: value))
            }
            return all
        }
        func unique(_ names: [String]) -> [String] {
            var seen = Set<String>()
            return names.filter { seen.insert($0).inserted }
        }
        guard let path = strings(FC_FILE).first else { return nil }
        var index: Int32 = 0
        _ = FcPatternGetInteger(face, FC_INDEX, 0, &index)
        var slant: Int32 = FC_SLANT_ROMAN
        _ = FcPatternGetInteger(face, FC_SLANT, 0, &slant)
        var width: Int32 = FC_WIDTH_NORMAL
        _ = FcPatternGetInteger(face, FC_WIDTH, 0, &width)
        var color: FcBool = FcFalse
        _ = FcPatternGetBool(face, FC_COLOR, 0, &color)
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        let families = unique(strings(FC_FAMILY))
        let styles = unique(strings(FC_STYLE))
        return FontDescription(
            family: families.first ?? fileName, style: styles.first ?? "Regular", fullName: strings(FC_FULLNAME).first ?? "",
            postScriptName: strings(FC_POSTSCRIPT_NAME).first ?? "", path: path, index: Int(index),
            familyNames: families.isEmpty ? [fileName] : families, styleNames: styles.isEmpty ? ["Regular"] : styles,
            weight: openTypeWeight(of: face), isItalic: slant != FC_SLANT_ROMAN, width: Int(width), isColor: color != FcFalse)
    }

    /// fontconfig's weight (80 regular, 200 bold) on the OpenType scale (400, 700). A variable font's
    /// default face lists a range: its weight is the point of the range nearest Regular.
    private static func openTypeWeight(of face: OpaquePointer) -> Int {
        var weight = Double(FC_WEIGHT_REGULAR)
        var range: OpaquePointer?
        if FcPatternGetDouble(face, FC_WEIGHT, 0, &weight) != FcResultMatch,
            FcPatternGetRange(face, FC_WEIGHT, 0, &range) == FcResultMatch
        {
            var low = 0.0
            var high = 0.0
            if FcRangeGetDouble(range, &low, &high) != 0 { weight = min(max(Double(FC_WEIGHT_REGULAR), low), high) }
        }
        return Int(FcWeightToOpenTypeDouble(weight).rounded())
    }
}
