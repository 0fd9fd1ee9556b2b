import TestSupport
public import Testing

extension Trait where Self == ConditionTrait {
    /// Skips a test or suite, saying why, when `redis-server` is not installed (CI installs it
    /// through scripts/setup).
    public static var needsRedisServer: Self {
        .enabled(if: RedisServer.executable != nil, Comment(rawValue: RedisServer.missingReason))
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips a test or suite, saying why, when `redis-server` or `redis-cli` (which makes the
    /// servers a cluster) is not installed.
    public static var needsRedisCluster: Self {
        .enabled(
            if: RedisServer.executable != nil && RedisCluster.cliExecutable != nil,
            Comment(rawValue: RedisServer.missingReason + "; a cluster needs redis-cli too"))
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips a test or suite, saying why, when `redis-server` or `openssl` (which makes the test's
    /// certificates) is not installed.
    public static var needsRedisTLS: Self {
        .enabled(
            if: RedisServer.executable != nil && TestCertificates.executable != nil,
            Comment(rawValue: RedisServer.missingReason + "; TLS needs " + TestCertificates.missingReason))
    }
}
