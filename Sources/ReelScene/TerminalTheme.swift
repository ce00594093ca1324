/// A terminal layer's colours: the default foreground and background, the cursor and the 16 palette
/// colours, and the built-in themes.
import ReelGeometry

/// A terminal's colours: default foreground and background, the cursor, and the 16 palette colours the
/// programs name (0–7 normal, 8–15 bright); colours 16–255 are xterm's fixed cube and greys.
public struct TerminalTheme: Sendable, Hashable {
    public var foreground: Color
    public var background: Color
    public var cursor: Color
    public var palette: [Color]

    public init(foreground: Color, background: Color, cursor: Color? = nil, palette: [Color]) {
        self.foreground = foreground
        self.background = background
        self.cursor = cursor ?? foreground
        self.palette = palette
    }

    /// Reel's dark theme: light grey on a near-black blue.
    public static let dark = TerminalTheme(
        foreground: hex(0xD5D9E0), background: hex(0x171A21), cursor: hex(0xF2F4F7),
        palette: [
            0x2A2E37, 0xE06471, 0x94C47A, 0xE3BD74, 0x5FA8EC, 0xC27BD9, 0x52B5C0, 0xD5D9E0,
            0x5E6573, 0xF0838E, 0xB2DE93, 0xF2D293, 0x86C0F4, 0xD89CEA, 0x78CFD8, 0xFFFFFF,
        ].map(hex))

    /// Reel's light theme: near-black on off-white.
    public static let light = TerminalTheme(
        foreground: hex(0x2B2F36), background: hex(0xFAFAF8), cursor: hex(0x2B2F36),
        palette: [
            0x2B2F36, 0xC4353F, 0x3F8A2E, 0x9E6C00, 0x2A63C4, 0x9C3FB5, 0x1F8591, 0xD6D9DE,
            0x6B717D, 0xDD4F59, 0x53A13F, 0xBC8812, 0x4A80DD, 0xB55BCC, 0x32A0AD, 0xFFFFFF,
        ].map(hex))

    /// The built-in themes by the names scene files and `--theme` give them.
    public static let builtIn: [String: TerminalTheme] = ["dark": .dark, "light": .light]

    static func hex(_ v: Int) -> Color {
        Color(red: Double(v >> 16 & 255) / 255, green: Double(v >> 8 & 255) / 255, blue: Double(v & 255) / 255)
    }
}
