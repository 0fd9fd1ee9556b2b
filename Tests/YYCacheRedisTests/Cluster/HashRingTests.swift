import Testing

@testable import YYCacheRedis

@Suite struct HashRingTests {
    let keys = (0..<20_000).map { "user:\($0)" }
    let names = (1...4).map { "10.0.0.\($0):6379" }

    private func owners(_ ring: HashRing, names: [String]) -> [String] {
        keys.map { names[ring.owner(ofHash: XXHash64.hash($0))] }
    }

    @Test func addingAFifthNodeMovesAboutAFifthOfTheKeysAllToTheNewNode() {
        let before = owners(HashRing(names: names), names: names)
        let fiveNames = names + ["10.0.0.5:6379"]
        let after = owners(HashRing(names: fiveNames), names: fiveNames)
        let moved = zip(before, after).filter { $0 != $1 }
        let share = Double(moved.count) / Double(keys.count)
        #expect((0.15...0.25).contains(share), "share moved: \(share)")
        #expect(moved.allSatisfy { $0.1 == "10.0.0.5:6379" })
    }

    @Test func removingANodeMovesOnlyItsOwnKeys() {
        let before = owners(HashRing(names: names), names: names)
        let three = Array(names.dropLast())
        let after = owners(HashRing(names: three), names: three)
        for (old, new) in zip(before, after) where old != names.last! {
            #expect(old == new)
        }
    }

    @Test func eachNodeOwnsANearlyEqualShare() {
        let counts = Dictionary(grouping: owners(HashRing(names: names), names: names), by: { $0 }).mapValues(\.count)
        for name in names {
            let share = Double(counts[name, default: 0]) / Double(keys.count)
            #expect((0.18...0.32).contains(share), "\(name): \(share)")
        }
    }

    @Test func theListOrderDoesNotChangeOwnership() {
        let reversed = Array(names.reversed())
        #expect(owners(HashRing(names: names), names: names) == owners(HashRing(names: reversed), names: reversed))
    }
}
