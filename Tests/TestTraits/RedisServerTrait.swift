public import Testing
import TestSupport

extension Trait where Self == ConditionTrait {
    /// Skips a test or suite, saying why, when `redis-server` is not installed (CI installs it
    /// through scripts/setup).
    public static var needsRedisServer: Self {
        .enabled(if: RedisServer.executable != nil, Comment(rawValue: RedisServer.missingReason))
    }
}
