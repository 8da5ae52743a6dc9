import SkillJSON

/// Cursor pagination for list methods (spec 2025-11-25, server/utilities/pagination): the cursor is an
/// opaque string (here `"<list>:<offset>"`), a page holds at most ``pageSize`` items, and `nextCursor` is
/// absent on the last page.
public struct MCPPagination: Sendable, Equatable {
    /// Items per page.
    public var pageSize: Int

    /// Pages of `pageSize` items (at least 1).
    public init(pageSize: Int) { self.pageSize = max(1, pageSize) }

    /// The page of `items` the request's `cursor` asks for, and the cursor of the next page.
    /// - Throws: -32602 when the cursor is not a string this server issued for `list`.
    public func page<Item>(of items: [Item], list: String, params: JSONValue?) throws(JSONRPCError) -> (items: ArraySlice<Item>, nextCursor: String?) {
        var start = 0
        if let cursor = params?["cursor"], cursor != .null {
            guard case .string(let text) = cursor, text.hasPrefix(list + ":"),
                  let offset = Int(text.dropFirst(list.count + 1)), offset >= 0, offset <= items.count
            else {
                throw .invalidParams("the cursor \(cursor.serialized()) is not one this server gave for \(list); start again without a cursor")
            }
            start = offset
        }
        let end = min(items.count, start + pageSize)
        return (items[start..<end], end < items.count ? "\(list):\(end)" : nil)
    }
}
