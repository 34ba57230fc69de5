import Foundation

/// The bytes a database takes on disk: the main file and its write-ahead log.
enum DatabaseFileSize {
    static func onDisk(_ url: URL) throws -> Int {
        let size = { (path: String) in (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
        return size(url.path) + size(url.path + "-wal")
    }
}
