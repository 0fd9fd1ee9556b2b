import TestSupport
public import Testing

extension Trait where Self == ConditionTrait {
    /// Skips a test or suite, saying why, when `../shared/testdata` is absent.
    public static var needsSharedTestData: Self {
        .enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason))
    }
}
