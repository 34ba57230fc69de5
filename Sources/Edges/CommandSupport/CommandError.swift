/// A command's failure, as the person who ran it reads it on standard error.
public struct CommandError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
