// Option values read by the library's rule (`SettingValue`: `--speed`, `--scale`, `--width`, `--size`,
// `--threads`, `--frames`, `--shard`, `--memory-limit`, `--jobs`), so every command refuses a bad value
// in the same words and with the same status.
import ArgumentParser
import Reel

/// The text as typed, read in the command's `validate()`: ArgumentParser's own refusal of a value it
/// cannot convert names neither the range nor the fix, and would differ from the library's for the
/// same mistake made through the Swift API or a preset.
struct Parsed<Value: SettingValue>: ExpressibleByArgument {
    let text: String

    init?(argument: String) { text = argument }

    var defaultValueDescription: String { text }

    /// The value, or the library's refusal as a usage error (exit status 64, with the usage line).
    func value() throws -> Value {
        do {
            return try Value(parsing: text)
        } catch {
            throw ValidationError(error.message.forCommandLine)
        }
    }
}
