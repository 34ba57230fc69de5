/// Where widgets send their `AppCommand`s: the dashboard connects it to its sync engine; tests
/// collect the commands; `none` drops them (a canvas without backends, e.g. `termcanvas render`).
@MainActor
public struct AppCommands {
    private let sink: @MainActor (AppCommand) -> Void

    public init(_ sink: @escaping @MainActor (AppCommand) -> Void) {
        self.sink = sink
    }

    public func send(_ command: AppCommand) {
        sink(command)
    }

    public static let none = AppCommands { _ in }
}
