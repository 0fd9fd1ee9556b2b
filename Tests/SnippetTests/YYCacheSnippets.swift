// swift-format-ignore-file
// (each snippet is the README's or the DocC catalog's code block, character for character)
import Foundation
import YYCache

// The README's YYCache example, compiled. Never called: it would write to /var/cache.

struct Profile: Codable, Sendable {
    var name = ""
}

func cacheSnippet(png: Data, url: String, etag: Data, profile: Profile) throws {
    // snippet.begin cache
    // Memory: O(1) LRU with count, cost and age limits and per-entry expiry.
    let thumbnails = MemoryCache<String, Data>(name: "thumbnails")
    thumbnails.costLimit = 64 << 20
    thumbnails.setValue(png, forKey: url, cost: png.count, expiresAfter: .seconds(300))
    let hit = thumbnails.value(forKey: url)

    // Disk: SQLite manifest + one file per large value; safe across threads, processes and crashes.
    let disk = try DiskCache(path: "/var/cache/myapp/images")      // inlineThreshold: 20 KB
    try disk.setData(png, forKey: url, extendedData: etag)
    let stored = try disk.data(forKey: url)                        // each call has an async twin too
    try disk.setValue(profile, forKey: "me")                       // Codable, through `disk.coder`
    let saved = try disk.value(Profile.self, forKey: "me")
    
    // Both: memory in front of disk, disk hits promoted into memory.
    let cache = try Cache<Profile>(name: "profiles")               // ~/.cache/profiles on Linux
    try cache.setValue(profile, forKey: "me")
    // snippet.end
    _ = (hit, stored, saved)
}
