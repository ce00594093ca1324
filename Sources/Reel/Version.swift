// The version Reel reports (`reel --version`) and hashes into batch records, so that a new version
// re-renders what a batch made.

/// The one place the version is written: scripts/package.sh and scripts/image.sh read it from this
/// line (keep it on one line, in this form) for the archives' names, the .deb and the image's tag.
public enum ReelVersion { public static let string = "0.1.0" }
