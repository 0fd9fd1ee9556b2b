import Testing

@testable import yy

/// `yy serve` caps glibc's malloc arenas unless the environment already chooses their number.
@Suite struct MallocArenasTests {
    @Test func theEnvironmentsOwnChoiceStands() {
        #expect(MallocArenas.environmentChooses(["MALLOC_ARENA_MAX": "4"]))
        #expect(MallocArenas.environmentChooses(["GLIBC_TUNABLES": "glibc.malloc.arena_max=1"]))
    }

    @Test func withoutAChoiceTheServerCapsTheArenas() {
        #expect(!MallocArenas.environmentChooses([:]))
        #expect(!MallocArenas.environmentChooses(["GLIBC_TUNABLES": "glibc.malloc.tcache_count=0", "PATH": "/usr/bin"]))
        #expect(MallocArenas.serverCount == 2)
    }
}
