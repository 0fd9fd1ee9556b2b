import Testing

@testable import YYWebImage

@Suite struct NewestJobWinsTests {
    @Test func aJobThatBeganEarlierDoesNotCommitAfterOneThatBeganLater() async {
        let jobs = NewestJobWins()
        var committed: [String] = []
        await jobs.run("k") { first in
            await jobs.run("k") { second in
                #expect(second.commitIfNewest { committed.append("second") })
                #expect(!first.commitIfNewest { committed.append("first") })
                #expect(first.isOvertaken)
                #expect(!second.isOvertaken)
            }
        }
        #expect(committed == ["second"])
        #expect(jobs.keysInFlight == 0)
    }

    @Test func aJobThatBeganLaterCommitsAfterOneThatBeganEarlier() async {
        let jobs = NewestJobWins()
        var committed: [String] = []
        await jobs.run("k") { first in
            await jobs.run("k") { second in
                #expect(first.commitIfNewest { committed.append("first") })
                #expect(second.commitIfNewest { committed.append("second") })
                #expect(first.isOvertaken)
            }
        }
        #expect(committed == ["first", "second"])
        #expect(jobs.keysInFlight == 0)
    }

    @Test func jobsOfOtherKeysDoNotStandInTheWay() async {
        let jobs = NewestJobWins()
        var committed: [String] = []
        await jobs.run("a") { first in
            await jobs.run("b") { second in
                #expect(second.commitIfNewest { committed.append("b") })
                #expect(first.commitIfNewest { committed.append("a") })
            }
        }
        #expect(committed == ["b", "a"])
        #expect(jobs.keysInFlight == 0)
    }

    @Test func aJobEndsWhenItsBodyThrows() async {
        struct Failure: Error {}
        let jobs = NewestJobWins()
        await #expect(throws: Failure.self) {
            try await jobs.run("k") { (_: NewestJobWins.Job) throws(Failure) in throw Failure() }
        }
        #expect(jobs.keysInFlight == 0)
    }
}
