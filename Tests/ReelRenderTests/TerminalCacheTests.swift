// The terminal's shared cache of rows: two generations within a cost limit, values in use kept across
// the turns, each value made once while kept.
import Testing

@testable import ReelRender

@Suite struct TerminalCacheTests {
    /// A value made for `key` at `cost`, counting the makes.
    final class Maker: @unchecked Sendable {
        var made: [Int] = []
        func make(_ key: Int, cost: Int) -> (String, cost: Int)? {
            made.append(key)
            return ("value \(key)", cost)
        }
    }

    /// Limit 100, each value 10: a generation turns at 50. A key looked up every time (a row on screen
    /// while the others scroll past) is made once however many turns pass; keys not looked up again are
    /// dropped with their generation and made again when asked for.
    @Test func aValueInUseOutlivesTheGenerations() {
        let cache = TerminalCache<Int, String>(limit: 100)
        let maker = Maker()
        for k in 1...40 {
            #expect(cache.value(for: 0) { maker.make(0, cost: 10) } == "value 0")
            #expect(cache.value(for: k) { maker.make(k, cost: 10) } == "value \(k)")
        }
        #expect(maker.made.filter { $0 == 0 }.count == 1)
        #expect(maker.made.count == 41)
        // Key 1 was in a generation dropped long ago (five keys a generation); 40, the last, is kept.
        _ = cache.value(for: 40) { maker.make(40, cost: 10) }
        _ = cache.value(for: 1) { maker.make(1, cost: 10) }
        #expect(maker.made.suffix(1) == [1])
    }

    /// What is kept never passes the limit: the older generation at most half, the recent at most half.
    /// Limit 100, each value 20: generations of two (a third passes 50). After 0…29, 28 and 29 are the
    /// recent generation and 26 and 27 the older; 25 is gone. 27 moved up turns the generations again.
    @Test func whatIsKeptStaysUnderTheLimit() {
        let cache = TerminalCache<Int, String>(limit: 100)
        let maker = Maker()
        for k in 0..<30 { _ = cache.value(for: k) { maker.make(k, cost: 20) } }
        maker.made = []
        for k in [29, 28, 27] { _ = cache.value(for: k) { maker.make(k, cost: 20) } }
        #expect(maker.made.isEmpty)
        // 27 moved into a full recent generation: 28 and 29 became the older, 26 was dropped with its.
        for k in [25, 29, 26] { _ = cache.value(for: k) { maker.make(k, cost: 20) } }
        #expect(maker.made == [25, 26])
    }

    /// A make that gives nothing keeps nothing: asked again, it is made again.
    @Test func nothingMadeIsNotKept() {
        let cache = TerminalCache<Int, String>(limit: 100)
        var tries = 0
        for _ in 0..<2 {
            #expect(
                cache.value(for: 1) { () -> (String, cost: Int)? in
                    tries += 1
                    return nil
                } == nil)
        }
        #expect(tries == 2)
    }
}
