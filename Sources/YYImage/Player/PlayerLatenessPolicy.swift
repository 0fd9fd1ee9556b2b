/// What a player does when a frame shows late (its decode was slow, or the player woke late).
public enum PlayerLatenessPolicy: Sendable, Equatable {
    /// Never skip a frame: a late frame delays the rest (YYAnimatedImageView's behaviour).
    case hold
    /// Keep to the clock: frames whose time has passed are skipped (the terminal's default).
    case skip
}
