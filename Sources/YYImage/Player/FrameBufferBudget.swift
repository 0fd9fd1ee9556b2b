import YYDispatch

/// The default size of a player's frame buffer, as YYAnimatedImageView sizes it.
public enum FrameBufferBudget {
    /// The smallest automatic budget: 10 MB.
    public static let minimum = 10 << 20

    /// max(10 MB, min(20 % of memory, 60 % of available memory)), with memory read from the
    /// process's cgroup (v2, then v1) or, outside a container, `/proc/meminfo` (10 MB when
    /// neither can be read). Frame buffers also keep at most 512 frames, whatever the budget.
    public static func automatic() -> Int {
        guard let reading = MemoryPressureMonitor.systemReading() else { return minimum }
        return budget(memory: reading.limit, available: reading.available)
    }

    /// The rule on given figures, in bytes.
    static func budget(memory: Int64, available: Int64) -> Int {
        let share = min(Double(memory) * 0.2, Double(max(0, available)) * 0.6)
        return max(minimum, Int(min(share, Double(Int.max / 2))))
    }
}
