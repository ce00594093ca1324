// The version Reel reports (`reel --version`) and hashes into batch records, so that a new version
// re-renders what a batch made.

public enum ReelVersion { public static let string = "0.1.0" }
