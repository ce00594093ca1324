import Foundation

enum ProcessInfoLite {
    static var activeProcessorCount: Int { ProcessInfo.processInfo.activeProcessorCount }
}
