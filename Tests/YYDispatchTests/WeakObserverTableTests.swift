import Dispatch
import Testing
import YYDispatch

@Suite struct WeakObserverTableTests {
    final class Listener: Sendable {
        let name: Int
        init(_ name: Int) { self.name = name }
    }

    @Test func addingAndRemovingAreIdempotentAndKeepOrder() {
        let table = WeakObserverTable<Listener>()
        let a = Listener(1), b = Listener(2), c = Listener(3)
        #expect(table.add(a))
        #expect(table.add(b))
        #expect(table.add(c))
        #expect(!table.add(a))
        #expect(table.allObservers.map(\.name) == [1, 2, 3])
        #expect(table.remove(b))
        #expect(!table.remove(b))
        #expect(!table.contains(b))
        #expect(table.contains(a))
        #expect(table.allObservers.map(\.name) == [1, 3])
        #expect(table.count == 2)
    }

    @Test func observersReleasedElsewhereDisappear() {
        let table = WeakObserverTable<Listener>()
        let kept = Listener(1)
        table.add(kept)
        do {
            let temporary = Listener(2)
            table.add(temporary)
            #expect(table.count == 2)
        }
        #expect(table.allObservers.map(\.name) == [1])
        var called: [Int] = []
        table.forEach { called.append($0.name) }
        #expect(called == [1])
    }

    @Test func anObserverCalledByForEachMayRemoveItselfAndAddOthers() {
        let table = WeakObserverTable<Listener>()
        let a = Listener(1), b = Listener(2), late = Listener(3)
        table.add(a)
        table.add(b)
        var called: [Int] = []
        table.forEach { listener in
            called.append(listener.name)
            table.remove(listener)
            table.add(late)
        }
        #expect(called == [1, 2], "forEach calls a snapshot")
        #expect(table.allObservers.map(\.name) == [3])
    }

    @Test func eightThreadsAddingRemovingAndIteratingAgree() {
        let table = WeakObserverTable<Listener>()
        let keepers = (0..<8).map { thread in (0..<50).map { Listener(thread * 1000 + $0) } }
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for (index, listener) in keepers[thread].enumerated() {
                table.add(listener)
                let temporary = Listener(-1)
                table.add(temporary)
                if index % 2 == 1 { table.remove(keepers[thread][index - 1]) }
                for observer in table.allObservers { _ = observer.name }
            }
        }
        // Odd indices stay; even ones were removed; temporaries were released.
        let expected = Set(keepers.flatMap { $0.enumerated().filter { $0.offset % 2 == 1 }.map(\.element.name) })
        #expect(Set(table.allObservers.map(\.name)) == expected)
        #expect(table.count == 8 * 25)
    }
}
