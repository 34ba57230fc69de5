/// Where widgets send their `AppCommand`s: the dashboard connects it to its sync engine; tests
/// collect the commands; `none` drops them (a canvas without backends, e.g. `termcanvas render`).
public struct AppCommands: Sendable {
    private let sink: @MainActor @Sendable (AppCommand) -> Void

    public init(_ sink: @escaping @MainActor @Sendable (AppCommand) -> Void) {
        self.sink = sink
    }

    @MainActor
    public func send(_ command: AppCommand) {
        sink(command)
    }

    public static let none = AppCommands { _ in }
}
