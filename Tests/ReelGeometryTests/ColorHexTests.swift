// Colours written as hex strings: ASCII digits read from the bytes, anything else as characters.
import ReelGeometry
import Testing

@Suite struct ColorHexTests {
    @Test func hexStrings() {
        #expect(Color(hex: "#fff") == Color(red: 1, green: 1, blue: 1))
        #expect(Color(hex: "#369") == Color(red: 3.0 / 15, green: 6.0 / 15, blue: 9.0 / 15))
        #expect(Color(hex: "#336699") == Color(red: 51.0 / 255, green: 102.0 / 255, blue: 153.0 / 255))
        #expect(Color(hex: "#AbCdEf") == Color(red: 171.0 / 255, green: 205.0 / 255, blue: 239.0 / 255))
        #expect(Color(hex: "#33669980") == Color(red: 51.0 / 255, green: 102.0 / 255, blue: 153.0 / 255, alpha: 128.0 / 255))
        for bad in ["", "#", "fff", "#ff", "#12345", "#1234567", "#ggg", "#12 456", "#ff00zz", "#f\u{301}f0000", "#ff0000 "] {
            #expect(Color(hex: bad) == nil, "\(bad)")
        }
        // Characters that are hex digits but not ASCII read as before (`Character.hexDigitValue`).
        #expect(Color(hex: "#\u{FF26}\u{FF26}0000") == Color(hex: "#FF0000"))
    }
}
