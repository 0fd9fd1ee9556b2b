import Testing
import YYCache
import YYImage
@testable import YYWebImage

@Suite struct MemoryStoreOrderTests {
    let cache = MemoryCache<String, Image>()
    let older = Image(bitmap: Fixtures.gradient(width: 2, height: 2), type: .png)
    let newer = Image(bitmap: Fixtures.gradient(width: 3, height: 3), type: .png)

    @Test func aJobThatBeganEarlierDoesNotReplaceTheImageOfOneThatBeganLater() {
        let order = MemoryStoreOrder()
        let first = order.begin("k"), second = order.begin("k")
        #expect(order.store(newer, cost: 1, in: cache, for: second))
        #expect(!order.store(older, cost: 1, in: cache, for: first))
        #expect(cache.value(forKey: "k")?.pixelWidth == 3)
        order.end(first)
        order.end(second)
        #expect(order.keysInFlight == 0)
    }

    @Test func aJobThatBeganLaterReplacesTheImageOfOneThatBeganEarlier() {
        let order = MemoryStoreOrder()
        let first = order.begin("k"), second = order.begin("k")
        #expect(order.store(older, cost: 1, in: cache, for: first))
        order.end(first)
        #expect(order.store(newer, cost: 1, in: cache, for: second))
        #expect(cache.value(forKey: "k")?.pixelWidth == 3)
        order.end(second)
        #expect(order.keysInFlight == 0)
    }

    @Test func jobsOfOtherKeysDoNotStandInTheWay() {
        let order = MemoryStoreOrder()
        let first = order.begin("a"), second = order.begin("b")
        #expect(order.store(newer, cost: 1, in: cache, for: second))
        #expect(order.store(older, cost: 1, in: cache, for: first))
        #expect(cache.value(forKey: "a")?.pixelWidth == 2)
        order.end(first)
        order.end(second)
        #expect(order.keysInFlight == 0)
    }
}
