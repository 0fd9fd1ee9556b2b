/// The palette entry nearest a colour, by the weighted distance 3·dr² + 4·dg² + 2·db² (green
/// counts most, as the eye sees it). Entries are kept sorted by green, and a search walks out from
/// the query's green in both directions, stopping each way once the green difference alone costs
/// more than the best match: the same answer as a scan of every entry, in a fraction of the work.
struct NearestColorSearch {
    /// The palette's colours sorted by green, with their original indices.
    private let entries: [(r: Int, g: Int, b: Int, index: Int)]

    init(_ palette: [RGBA]) {
        entries = palette.enumerated().map { (Int($1.r), Int($1.g), Int($1.b), $0) }.sorted { ($0.g, $0.index) < ($1.g, $1.index) }
    }

    /// The index of the nearest entry; among equally near ones, the lowest index.
    func nearest(r: Int, g: Int, b: Int) -> Int {
        guard !entries.isEmpty else { return 0 }
        // The first entry whose green is at least `g`.
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].g < g { low = middle + 1 } else { high = middle }
        }
        var best = Int.max, bestIndex = Int.max
        func consider(_ entry: (r: Int, g: Int, b: Int, index: Int)) {
            let dr = entry.r - r, dg = entry.g - g, db = entry.b - b
            let distance = 3 * dr * dr + 4 * dg * dg + 2 * db * db
            if distance < best || (distance == best && entry.index < bestIndex) {
                best = distance
                bestIndex = entry.index
            }
        }
        var up = low, down = low - 1
        while up < entries.count || down >= 0 {
            if up < entries.count {
                let dg = entries[up].g - g
                if 4 * dg * dg > best { up = entries.count } else { consider(entries[up]); up += 1 }
            }
            if down >= 0 {
                let dg = g - entries[down].g
                if 4 * dg * dg > best { down = -1 } else { consider(entries[down]); down -= 1 }
            }
        }
        return bestIndex
    }
}
