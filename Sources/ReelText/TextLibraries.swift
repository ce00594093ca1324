// The version of the shaping library this process runs with, for `reel --version`: glyph outlines and positions come from it.
internal import CText

public enum TextLibraries {
    /// HarfBuzz's version as loaded ("6.0.0"), which shapes every run and draws every glyph's outline.
    public static var harfBuzz: String { String(cString: hb_version_string()) }
}
