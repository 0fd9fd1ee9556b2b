/// Consistent hashing over independent servers: each node owns many points on a 64-bit ring, and a
/// key belongs to the node of the first point at or after the key's hash. Adding or removing one of
/// N nodes moves only the keys of its own points, about 1/N of them.
struct HashRing: Sendable {
    /// Points per node: enough that the nodes' shares stay within a few percent of equal.
    static let pointsPerNode = 160

    private let points: [UInt64]
    private let owners: [Int]

    /// A ring over nodes named `names` (their names place them, so the same names give the same
    /// ring in every process, whatever the order they are listed in).
    init(names: [String]) {
        precondition(!names.isEmpty, "a ring needs at least one node")
        var placed: [(point: UInt64, owner: Int)] = []
        placed.reserveCapacity(names.count * Self.pointsPerNode)
        for (index, name) in names.enumerated() {
            for replica in 0..<Self.pointsPerNode {
                placed.append((XXHash64.hash("\(name)#\(replica)"), index))
            }
        }
        // Ties (vanishingly rare) go to the smaller name, not to list order.
        placed.sort { $0.point != $1.point ? $0.point < $1.point : names[$0.owner] < names[$1.owner] }
        points = placed.map(\.point)
        owners = placed.map(\.owner)
    }

    /// The index (in `names`) of the node that owns a key hashing to `hash`.
    func owner(ofHash hash: UInt64) -> Int {
        // The first point at or after `hash`, wrapping past the end.
        var low = 0
        var high = points.count
        while low < high {
            let middle = (low + high) / 2
            if points[middle] < hash { low = middle + 1 } else { high = middle }
        }
        return owners[low == points.count ? 0 : low]
    }
}
