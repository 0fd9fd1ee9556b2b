import Testing

@testable import YYDispatch

@Suite struct IdleWorkListTests {
    @Test func itemsComeOutInTheOrderAddedWithoutTheCancelledOnes() {
        var list = IdleWorkList()
        let ran = Locked([Int]())
        let ids = (0..<10).map { index in list.append { ran.withLock { $0.append(index) } } }
        list.remove(ids[0])
        list.remove(ids[4])
        list.remove(ids[9])
        list.remove(ids[4])  // twice: nothing more
        #expect(list.count == 7)
        while let work = list.popFirst() { work() }
        #expect(ran.withLock { $0 } == [1, 2, 3, 5, 6, 7, 8])
        #expect(list.count == 0)
        #expect(list.storedIDCount == 0)
    }

    @Test func idsAreNeverReusedSoAnOldItemCannotCancelANewOne() {
        var list = IdleWorkList()
        let first = list.append {}
        list.remove(first)
        let second = list.append {}
        #expect(second != first)
        list.remove(first)
        list.removeAll()
        let third = list.append {}
        #expect(third != first && third != second)
        list.remove(first)
        list.remove(second)
        #expect(list.count == 1)
    }

    /// Items added and cancelled while the oldest waits (regular work keeps the queue busy) left
    /// their ids behind; they are dropped once they are most of what is stored.
    @Test func addingAndCancellingBehindAWaitingItemKeepsStorageBounded() {
        var list = IdleWorkList()
        _ = list.append {}
        for _ in 0..<100_000 { list.remove(list.append {}) }
        #expect(list.count == 1)
        #expect(list.storedIDCount <= 1024 + 2)
    }

    /// Taken ids are dropped as items run, so a long-lived queue does not keep every id it saw.
    @Test func takingItemsKeepsStorageBounded() {
        var list = IdleWorkList()
        for round in 0..<100 {
            for _ in 0..<1_000 { _ = list.append {} }
            for _ in 0..<999 { _ = list.popFirst() }
            #expect(list.count == round + 1)
        }
        #expect(list.storedIDCount <= 4_096)
    }
}
