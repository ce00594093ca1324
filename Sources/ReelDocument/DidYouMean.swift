/// How messages quote what the input said: the nearest known name for a typo ("did you mean"), and
/// long words shortened.
import Foundation

/// A word from the input as a message quotes it: whole up to 40 characters, else its start and its
/// length (a 1 MB key is not echoed back).
public func shortened(_ word: String) -> String {
    word.count <= 40 ? word : "\(word.prefix(32))… (\(word.utf8.count) bytes)"
}

/// The candidate nearest in spelling to `word` when it is plausibly what was meant (for "did you mean").
public func closest(_ word: String, in candidates: [String]) -> String? {
    // No key or name is that long: spare the edit distances (quadratic in the lengths).
    guard word.count <= 64 else { return nil }
    let w = Array(word.lowercased())
    let best = candidates.map { ($0, editDistance(w, Array($0.lowercased()))) }.min { $0.1 < $1.1 }
    guard let (name, d) = best else { return nil }
    // Close in spelling, or a different ending of the same word ("rotate" for "rotation").
    let stem = String(w.dropLast())
    guard d <= max(2, w.count / 3) || (w.count >= 5 && name.lowercased().hasPrefix(stem)) else { return nil }
    return name
}

/// Levenshtein distance: the fewest insertions, deletions and substitutions that turn `a` into `b`.
public func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    var previous = Array(0...b.count)
    for (i, ca) in a.enumerated() {
        var current = [i + 1]
        for (j, cb) in b.enumerated() {
            current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1)))
        }
        previous = current
    }
    return previous[b.count]
}

/// "did you mean "x"? " for the candidate nearest to `word`, or "" when none is close: the start of a
/// fix line, followed by what is known.
public func didYouMean(_ word: String, in candidates: [String]) -> String {
    closest(word, in: candidates).map { "did you mean \"\($0)\"? " } ?? ""
}
