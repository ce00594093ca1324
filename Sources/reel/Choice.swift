// Option values from a fixed list (codec, chroma, dither, progress): `--help` lists them, and a typo is
// answered with the nearest value ("did you mean"), which ArgumentParser's own refusal does not give.
import ArgumentParser
import Foundation
import ReelDocument
import ReelScene

struct Choice<Value: RawRepresentable & CaseIterable>: ExpressibleByArgument where Value.RawValue == String {
    /// What was typed; checked in the command's `validate()` so that the refusal can name the option.
    let text: String

    init?(argument: String) { text = argument }
    init(_ value: Value) { text = value.rawValue }

    static var allValueStrings: [String] { Value.allCases.map(\.rawValue) }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
    var defaultValueDescription: String { text }

    /// The value, or the refusal naming `option`, the nearest value and all of them.
    func value(for option: String) throws -> Value {
        if let v = Value(rawValue: text) { return v }
        let names = Self.allValueStrings
        let guess = closest(text, in: names).map { " (did you mean \($0)?)" } ?? ""
        throw ValidationError(
            "\(option): '\(shortened(text))' is not a value it takes\(guess); it takes \(names.joined(separator: ", "))")
    }
}

/// What `--progress` draws on stderr.
enum ProgressKind: String, CaseIterable {
    /// A bar on a terminal, nothing otherwise (or with --quiet).
    case auto
    case bar
    /// One JSON object a line (README, "Machine-readable output").
    case json
    case none

    /// `auto` decided for this process's stderr.
    func resolved(quiet: Bool) -> ProgressKind {
        self != .auto ? self : quiet || isatty(2) == 0 ? .none : .bar
    }
}
