import CanvasUI
import CommandSupport
import HTTPClient
import PlainText

extension CommandError {
    /// What went wrong asking a server to do `what`, for a person: the server's own reason when
    /// it gave one.
    package init(explaining error: HTTPClientError, doing what: String) {
        switch error {
        case .status(let code, _, let apiError?):
            self.init(TerminalText.safe("the server refused to \(what): \(apiError.error)\(apiError.field.map { " (\($0))" } ?? "") [\(code)]"))
        default:
            self.init(TerminalText.safe("could not \(what): \(error)"))
        }
    }
}
