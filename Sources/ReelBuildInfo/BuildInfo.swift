// What a binary knows of its own build: the commit it was built from (stamped by Plugins/CommitStamp).

public enum BuildInfo {
    /// The commit's short hash, "… with uncommitted changes" after it when the tree differed from it,
    /// or "unknown" when built outside a git checkout without `REEL_COMMIT`.
    public static let commit: String = stampedCommit
}
