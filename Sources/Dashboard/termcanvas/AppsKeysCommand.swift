import AppInstalls
import AppPackages
import ArgumentParser
import CanvasUI
import CommandSupport
import FoundationEssentials
import PlainText

extension AppsCommand {
    /// A publisher's signing key: made, shown, rotated.
    struct Keys: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keys",
            abstract: "Your publisher key, which signs the packages you publish: make one, show it, rotate it.",
            discussion: """
                apps publish signs each version with your key (Ed25519, as minisign and signify use). The first install of \
                a package pins its key, so a later version signed by another key is refused, unless that key was handed \
                over to by the pinned one (apps keys new --rotate). Keep the secret key file as you keep an SSH key: \
                whoever has it publishes as you, and whoever loses it cannot hand over to a new one.
                """,
            subcommands: [New.self, Show.self],
            defaultSubcommand: Show.self)

        struct New: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "new",
                abstract: "Make your publisher key (its secret file is yours alone, 0600); --rotate replaces one, handing over to the new.")

            @Flag(help: "Replace your key with a new one it signs over to; the old file is kept beside it, renamed.") var rotate = false
            @OptionGroup var file: KeyFileOption

            func run() throws {
                let location = file.location
                let earlier = try PublisherKeyFile.read(location)
                if let earlier, !rotate {
                    throw CommandError(TerminalText.safe("you have a publisher key already (\(earlier.key?.fingerprint ?? "")) in "
                                                         + "\(location.path): --rotate makes a new one that it hands over to"))
                }
                let key = try PublisherKeyFile.make(after: earlier)
                if let earlier, let old = earlier.key {
                    let kept = location.deletingLastPathComponent()
                        .appendingPathComponent("publisher-" + old.fingerprint.dropFirst(8).prefix(9).filter { $0 != " " } + ".key")
                    try earlier.write(to: kept)
                    try key.write(to: location)
                    print(TerminalText.safe("Your new publisher key: \(key.key?.fingerprint ?? ""), in \(location.path)."))
                    print(TerminalText.safe("It is signed over from \(old.fingerprint) (kept in \(kept.path)): those who installed "
                                            + "your packages take the versions you sign with the new key."))
                } else {
                    try key.write(to: location)
                    print(TerminalText.safe("Your publisher key: \(key.key?.fingerprint ?? ""), in \(location.path) (yours alone; back it up)."))
                    print("apps publish signs your packages with it; their first install pins it.")
                }
            }
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "show", abstract: "Show your publisher key's fingerprint and public key.")

            @OptionGroup var file: KeyFileOption

            func run() throws {
                guard let key = try PublisherKeyFile.read(file.location), let publicKey = key.key else {
                    throw CommandError("you have no publisher key: termcanvas apps keys new makes one (apps publish does too, the first time)")
                }
                print("fingerprint  \(publicKey.fingerprint)")
                print("public key   \(publicKey.base64)")
                print(TerminalText.safe("file         \(file.location.path)"))
                for endorsement in key.endorsements {
                    print(TerminalText.safe("handed over from \(PublicKey(base64: endorsement.key)?.fingerprint ?? "a key that cannot be read")"))
                }
            }
        }
    }
}

/// Which publisher key file a command uses.
struct KeyFileOption: ParsableArguments {
    @Option(help: ArgumentHelp("Your publisher key's file (default: termcanvas/publisher.key in your config folder).", valueName: "file"))
    var key: String?

    var location: URL {
        key.map { URL(fileURLWithPath: $0).standardizedFileURL } ?? PublisherKeyFile.defaultLocation(AppsCommand.paths)
    }
}
