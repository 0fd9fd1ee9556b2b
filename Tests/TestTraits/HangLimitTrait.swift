public import Testing

extension Trait where Self == TimeLimitTrait {
    /// Fails a test that has not ended after ten minutes, longer than the whole suite runs on two
    /// cores: a hang becomes a named failure instead of a CI run that never ends.
    ///
    /// It is a hang detector, never a speed check, and it cannot be tighter. Swift Testing runs
    /// synchronous tests on Swift's cooperative pool, one thread a core, so on a two-core machine
    /// two tests decoding frames or waiting for child processes hold every async test still while
    /// they run; a one-minute limit failed a loopback fetch of two seconds in CI that way.
    public static var hangLimit: Self { .timeLimit(.minutes(10)) }
}
