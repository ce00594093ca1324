/// `reel fonts`: the installed fonts, by the names a text layer's `font` takes.
import ArgumentParser
import Foundation
import ReelText

struct Fonts: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the installed fonts: family, style, PostScript name and file.",
        discussion: """
            A text layer's font takes any of these names: a PostScript name (Inter-SemiBoldItalic), a family \
            with an optional style (Inter, Inter Semi Bold Italic), or the path of a font file relative to the \
            scene (fonts/Brand.otf). A family alone means its regular face. A font that is not installed is an \
            error, never a silent substitute.
            """
    )

    @Argument(help: "Only the fonts whose family, style, full or PostScript name contains this (any case).")
    var pattern: String?

    @Flag(help: "Print a JSON array of objects with the keys family, style, postScriptName and file.")
    var json = false

    func run() throws {
        let catalog = FontCatalog.installed
        let fonts = catalog.matching(pattern ?? "")
        if fonts.isEmpty {
            let near = pattern.map { catalog.suggestions(for: $0) } ?? []
            Console.say(
                .note(
                    (pattern.map { "no installed font's name contains \"\($0)\"" } ?? "fontconfig lists no fonts")
                        + (near.isEmpty ? "" : "; did you mean \(near.map { "\"\($0)\"" }.joined(separator: ", "))?")))
        }
        if json {
            print(fonts.isEmpty ? "[]" : try jsonText(fonts))
            return
        }
        let rows = fonts.map { [$0.family, $0.style, $0.postScriptName, $0.path] }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let padded = (0..<3).map { row[$0] + String(repeating: " ", count: widths[$0] - row[$0].count) }
            print((padded + [row[3]]).joined(separator: "  "))
        }
    }

    private func jsonText(_ fonts: [FontDescription]) throws -> String {
        struct Entry: Encodable {
            var family, style, postScriptName, file: String
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let entries = fonts.map { Entry(family: $0.family, style: $0.style, postScriptName: $0.postScriptName, file: $0.path) }
        return String(decoding: try encoder.encode(entries), as: UTF8.self)
    }
}
