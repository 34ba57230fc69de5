import PlainText

/// The bytes of one HTTP/1.1 request as `SocketEngine` writes them: request line, `Host`, the
/// exchange's headers (already checked for line breaks by `Exchange.build`), `Content-Length`
/// and the body.
enum RequestHead {
    static func bytes(of exchange: Exchange) -> [UInt8] {
        let (host, target) = hostAndTarget(exchange.url)
        var head = "\(exchange.method.rawValue) \(target) HTTP/1.1\r\nHost: \(host)\r\nUser-Agent: termcanvas\r\n"
        // `Name:` with no value is libcurl's way of saying "do not send this header".
        for line in exchange.headerLines where !line.hasSuffix(":") {
            head += line + "\r\n"
        }
        let method = exchange.method
        if let body = exchange.body {
            head += "Content-Length: \(body.count)\r\n"
        } else if method == .post || method == .put || method == .patch {
            head += "Content-Length: 0\r\n"
        }
        head += "\r\n"
        return Array(head.utf8) + (exchange.body ?? [])
    }

    /// `http://localhost/prefix/path?q` → ("localhost", "/prefix/path?q").
    static func hostAndTarget(_ url: String) -> (host: String, target: String) {
        let afterScheme = url.utf8Range(of: "://").map { url[$0.upperBound...] } ?? url[...]
        let slash = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
        let target = afterScheme[slash...]
        return (String(afterScheme[..<slash]), target.isEmpty ? "/" : String(target))
    }
}
