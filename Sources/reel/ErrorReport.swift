// Errors to messages and exit statuses, in one place: the library's errors name settings without
// spelling them, and here they become the options of this command line.
import ArgumentParser
import Reel

extension Setting {
    /// The option that sets it: `--memory-limit` for `memoryLimit`.
    var option: String {
        switch self {
        case .variables: return "--var"
        case .count: return "--count"
        case .concurrency: return "--jobs"
        default: return "--" + rawValue.map { $0.isUppercase ? "-" + $0.lowercased() : String($0) }.joined()
        }
    }

    /// Options that take no value: a message's "lossless: true" is `--lossless` here.
    var isFlag: Bool { [.lossless, .flatten, .alphaDither, .sandbox, .failFast].contains(self) }
}

extension SettingSpelling {
    /// As options of this command line: `--crf 0`, `--lossless`.
    static let option = SettingSpelling { setting, value in
        guard let value, !(setting.isFlag && value == "true") else { return setting.option }
        return "\(setting.option) \(value)"
    }
}

extension Message {
    /// The text with settings spelled as this command line's options.
    var forCommandLine: String { text(.option) }
}

/// A command's own reason to stop, with its exit status (a batch whose manifest is wrong exits 2).
struct CommandFailure: Error {
    var message: Message
    var exit: Int32
}

enum ErrorReport {
    /// The message and exit status for an error a command threw, or nil for ArgumentParser's own
    /// (usage errors, help requests), which it words and numbers itself.
    static func describe(_ error: any Error) -> (message: String, exit: Int32)? {
        switch error {
        case let e as ReelError: return (e.message.forCommandLine, e.exitCode)
        case let e as CommandFailure: return (e.message.forCommandLine, e.exit)
        default: return nil
        }
    }
}
