import CommandSupport
import CanvasUI
import AppPackages
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import PlainText
import PrivateFiles
import ServerAPI

/// An app's folder as a package, and a package as an app's folder.
package enum PackageFolder {
    /// The archive of the files under `folder`: plain files and folders only; hidden names (`.git`,
    /// `.env`, `.venv`) are left out, and said.
    /// - Throws: `CommandError` naming a link or special file, or what `PackageArchive` refuses.
    package static func archive(of folder: URL) throws -> (archive: PackageArchive, leftOut: [String]) {
        var files: [PackageArchive.File] = []
        var leftOut: [String] = []
        var bytes = 0
        func walk(_ directory: URL, prefix: String) throws {
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
                let path = prefix + name
                guard !name.hasPrefix(".") else {
                    leftOut.append(path)
                    continue
                }
                let url = directory.appendingPathComponent(name)
                var info = stat()
                guard lstat(url.path, &info) == 0 else { throw CommandError("\(TerminalText.safe(url.path)) cannot be read") }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    try walk(url, prefix: path + "/")
                case S_IFREG:
                    bytes += Int(info.st_size)
                    guard bytes <= PackageLimits.archiveBytes else {
                        throw CommandError(TerminalText.safe("\(folder.path) holds more than the \(ByteCount.words(PackageLimits.archiveBytes)) a package "
                                                             + "may be (\(path) is \(ByteCount.words(Int(info.st_size)))): leave out what the app does not need"))
                    }
                    let data = try Data(contentsOf: url)
                    files.append(.init(path: path, isExecutable: info.st_mode & S_IXUSR != 0, bytes: Array(data)))
                default:
                    throw CommandError("\(TerminalText.safe(url.path)) is a link or a special file: a package holds plain files and folders only")
                }
            }
        }
        try walk(folder, prefix: "")
        do {
            return (try PackageArchive(files: files), leftOut)
        } catch {
            throw CommandError("\(TerminalText.safe(folder.path)): \(TerminalText.safe(error.description))")
        }
    }

    /// Writes the archive's files under `folder` (made here): folders 0700, files 0600, or 0700 when
    /// executable, whatever the umask.
    package static func write(_ archive: PackageArchive, to folder: URL) throws {
        try PrivatePath.makeDirectory(folder)
        for file in archive.files {
            let target = folder.appendingPathComponent(file.path)
            var parent = folder
            for part in file.path.split(separator: "/").dropLast() {
                parent.appendPathComponent(String(part))
                try PrivatePath.makeDirectory(parent)
            }
            guard FileManager.default.createFile(atPath: target.path, contents: Data(file.bytes),
                                                 attributes: [.posixPermissions: file.isExecutable ? 0o700 : 0o600]) else {
                throw CommandError("could not write \(TerminalText.safe(target.path))")
            }
            // createFile's mode goes through the umask; this one does not.
            try FileManager.default.setAttributes([.posixPermissions: file.isExecutable ? 0o700 : 0o600], ofItemAtPath: target.path)
        }
    }
}
