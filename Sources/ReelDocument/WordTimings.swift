/// Word timestamps as speech-to-text tools write them (a JSON list of `{word, start, end}`, or such a
/// list under `words`, or under each of `segments`, as Whisper writes it), with limits and located
/// errors.

/// One spoken word and when it is said (seconds).
public struct TimedWord: Sendable, Equatable {
    public var word: String
    public var start: Double
    public var end: Double

    public init(word: String, start: Double, end: Double) {
        self.word = word
        self.start = start
        self.end = end
    }
}

public enum WordTimings {
    public static let maximumBytes = 64 << 20
    public static let maximumWords = 1_000_000

    /// The words of a word-timestamp file, in the file's order; `file` names it in errors.
    public static func parse(_ bytes: [UInt8], file: String) throws(DocumentError) -> [TimedWord] {
        guard bytes.count <= maximumBytes else {
            throw DocumentError(file: file, message: "is \(bytes.count >> 20) MiB, above the limit of \(maximumBytes >> 20) MiB")
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw DocumentError(file: file, location: error.location, message: error.message, fix: "give valid JSON")
        }
        var words: [TimedWord] = []
        func fail(_ node: JSONNode, _ path: String, _ message: String) -> DocumentError {
            DocumentError(
                file: file, location: node.location, path: path, message: message,
                fix: "give a list of {\"word\": \"Hello\", \"start\": 0.5, \"end\": 0.8}")
        }
        func list(_ node: JSONNode, _ path: String) throws(DocumentError) {
            guard case .array(let items) = node.value else { throw fail(node, path, "expected a list of words") }
            for (i, item) in items.enumerated() {
                let p = "\(path)[\(i)]"
                guard case .object(let pairs) = item.value else { throw fail(item, p, "expected a word: {word, start, end}") }
                func member(_ key: String) -> JSONNode? { pairs.first { $0.key == key }?.value }
                guard let w = member("word") ?? member("text"), case .string(let text) = w.value else {
                    throw fail(item, p, "a word needs its \"word\" (text)")
                }
                guard let s = member("start"), case .number(let start) = s.value, let e = member("end"),
                    case .number(let end) = e.value
                else { throw fail(item, p, "a word needs its \"start\" and \"end\" in seconds") }
                guard start >= 0, end >= start, end <= 86_400 else {
                    throw fail(item, p, "a word ends at or after it starts, within 0…86400 s (\(start)…\(end))")
                }
                guard words.count < maximumWords else { throw fail(item, p, "more than \(maximumWords) words") }
                words.append(TimedWord(word: text, start: start, end: end))
            }
        }
        switch root.value {
        case .array:
            try list(root, "")
        case .object(let pairs):
            if let w = pairs.first(where: { $0.key == "words" })?.value {
                try list(w, "words")
            } else if let s = pairs.first(where: { $0.key == "segments" })?.value, case .array(let segments) = s.value {
                for (i, segment) in segments.enumerated() {
                    guard case .object(let sp) = segment.value, let w = sp.first(where: { $0.key == "words" })?.value else {
                        continue
                    }
                    try list(w, "segments[\(i)].words")
                }
            } else {
                throw fail(root, "", "expected a list of words, or an object with \"words\" or \"segments\"")
            }
        default:
            throw fail(root, "", "expected a list of words")
        }
        return words
    }
}
