import Testing

@testable import YYWebImage

@Suite struct StartOrderTests {
    @Test func aJobThatBeganEarlierDoesNotApplyAfterOneThatBeganLater() {
        let order = StartOrder()
        var applied: [String] = []
        let first = order.begin("k"), second = order.begin("k")
        #expect(order.applyIfLatest(second) { applied.append("second") })
        #expect(!order.applyIfLatest(first) { applied.append("first") })
        #expect(applied == ["second"])
        order.end(first)
        order.end(second)
        #expect(order.keysInFlight == 0)
    }

    @Test func aJobThatBeganLaterAppliesAfterOneThatBeganEarlier() {
        let order = StartOrder()
        var applied: [String] = []
        let first = order.begin("k"), second = order.begin("k")
        #expect(order.applyIfLatest(first) { applied.append("first") })
        order.end(first)
        #expect(order.applyIfLatest(second) { applied.append("second") })
        #expect(applied == ["first", "second"])
        order.end(second)
        #expect(order.keysInFlight == 0)
    }

    @Test func jobsOfOtherKeysDoNotStandInTheWay() {
        let order = StartOrder()
        var applied: [String] = []
        let first = order.begin("a"), second = order.begin("b")
        #expect(order.applyIfLatest(second) { applied.append("b") })
        #expect(order.applyIfLatest(first) { applied.append("a") })
        #expect(applied == ["b", "a"])
        order.end(first)
        order.end(second)
        #expect(order.keysInFlight == 0)
    }
}
