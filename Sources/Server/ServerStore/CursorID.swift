/// The id in a page cursor: 1 to 19 digits, as the API document says. One past Int64 stands for
/// the largest, so a cursor the document allows is never refused: after it nothing comes, before
/// it everything.
package enum CursorID {
    package static func parse(_ text: some StringProtocol) -> Int64? {
        guard (1...19).contains(text.utf8.count), text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return Int64(text) ?? .max
    }
}
