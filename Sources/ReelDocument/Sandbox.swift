/// Confinement for render services (`--sandbox`): a scene reads only inside its own folder, a batch
/// writes only inside its manifest's folder, and a variable cannot smuggle a path out of either.
import Foundation

public enum Sandbox {
    /// True when `path` lies inside `root` (or is it), judged first on the path as written — `..`
    /// folded, links not followed — and then, where the path or a parent exists, on where its links
    /// lead. The first test comes before anything is looked up, so a refusal never tells whether an
    /// outside file exists.
    public static func contains(_ root: String, _ path: String) -> Bool {
        let base = standardized(root)
        let target = standardized(path.hasPrefix("/") ? path : (base as NSString).appendingPathComponent(path))
        guard target == base || target.hasPrefix(base == "/" ? "/" : base + "/") else { return false }
        // Links: the deepest existing part of the path, resolved, must still be inside the resolved root.
        let realBase = resolved(base)
        var probe = target
        while probe != "/" && !FileManager.default.fileExists(atPath: probe) {
            probe = (probe as NSString).deletingLastPathComponent
        }
        let real = resolved(probe)
        return real == realBase || real.hasPrefix(realBase == "/" ? "/" : realBase + "/")
    }

    /// A value that builds part of a path (a batch output's `{variable}`) must stay one name: no
    /// separator, not `.` or `..`.
    public static func isPlainName(_ value: String) -> Bool {
        !value.contains("/") && !value.contains("\\") && value != "." && value != ".." && !value.contains("\0")
    }

    static func standardized(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: absolute).standardized.path
    }

    static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }
}
