// swift-format-ignore-file
// (each snippet is the README's or the DocC catalog's code block, character for character)
import Foundation
import YYCache
import YYCacheRedis

// The README's YYCacheRedis example, compiled. Never called: it would connect to 10.0.0.5.

func fetchProfile(_ id: Int) async throws -> Profile { Profile(name: "\(id)") }

func cacheRedisSnippet() async throws {
    // snippet.begin cache-redis
    // Redis behind memory and disk, shared by every replica; keys spread over the servers by
    // consistent hashing. Reads: memory → disk → Redis (a hit is kept locally for the time it has left).
    let tier = try RedisCacheTier(urls: ["redis://cache:secret@10.0.0.5:6379/0", "redis://10.0.0.6:6379"])
    let profiles = try Cache<Profile>(name: "profiles", sharedTier: tier)

    try await profiles.setValue(Profile(name: "Ann"), forKey: "user/42", expiresAfter: .seconds(600))
    let profile = try await profiles.value(forKey: "user/7") {    // a miss on every replica at once:
        try await fetchProfile(7)                                 // one of them runs this, the others wait
    }
    print(profiles.sharedTierStatistics, tier.statistics)         // hits, misses, errors, skipped writes, open circuits
    // snippet.end
    _ = profile
}
