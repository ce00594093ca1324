// Fuzz target: a data table (CSV or JSON Lines) read into a batch's rows (scripts/fuzz.sh rows).
import FuzzSupport
import ReelDocument
import ReelGeometry

@testable import Reel

/// A batch job's data table, as CSV and as JSON Lines, against a scene declaring a text, a colour, a
/// number, a point and a required variable.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRows(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    let at = SourceLocation(line: 1, column: 1)
    let declared: [(name: String, value: JSONNode)] = [
        ("label", JSONNode(value: .string("Hi"), location: at)), ("color", JSONNode(value: .string("#3478f6"), location: at)),
        ("count", JSONNode(value: .number(1), location: at)),
        (
            "spot",
            JSONNode(
                value: .array([JSONNode(value: .number(0), location: at), JSONNode(value: .number(0), location: at)]),
                location: at)
        ),
        ("need", JSONNode(value: .null, location: at)),
    ]
    for file in ["fuzz.csv", "fuzz.jsonl"] {
        if let rows = try? DataRows.parse(bytes, file: file, declared: declared) { blackHole(rows.count) }
    }
    return 0
}
