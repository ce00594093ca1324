public enum ReelVersion { public static let string = "0.1.0" }
