public import YYDispatch

/// The monitor lives in YYDispatch so that YYImage's players can use it too; these names keep
/// `import YYCache` enough for cache users.
public typealias MemoryPressureMonitor = YYDispatch.MemoryPressureMonitor
/// Something that can give memory back when the process runs short (see YYDispatch).
public typealias MemoryPressureHandling = YYDispatch.MemoryPressureHandling

extension MemoryCache: MemoryPressureHandling {}
