/// TZIDs as calendar exports write them, and the system zone each stands for: the IANA name itself
/// (`Europe/Berlin`), a Windows name as Outlook and Exchange write them (`W. Europe Standard Time`, through
/// CLDR's `windowsZones` table in WindowsZones/), a "globally unique" TZID behind a vendor's prefix
/// (`/mozilla.org/20050126_1/Europe/Berlin`, `/freeassociation.sourceforge.net/Tzfile/Europe/Vienna`,
/// `/Europe/Stockholm`, `posix/Europe/Vaduz`), quoted or padded with spaces.
enum TimeZoneNames {
    /// The system zone `tzid` names, or nil when none of its readings is a zone the system knows.
    static func systemZone(for tzid: String) -> SystemZone? {
        for name in candidates(for: tzid) {
            if let zone = SystemZone(exactly: name) { return zone }
        }
        return nil
    }

    /// The names to try for `tzid`, best first: as written; without surrounding spaces, quotes and
    /// slashes; the IANA zone of a Windows name; then, for a name of several `/`-separated parts, the
    /// trailing parts, longest first (a vendor's prefix dropped; `America/Argentina/Buenos_Aires` keeps
    /// its three parts).
    static func candidates(for tzid: String) -> [String] {
        guard tzid.utf8.count <= 200 else { return [] }
        var names = [tzid]
        let cleaned = tzid.trimmingCharacters(" \t\"'/")
        if cleaned != tzid { names.append(cleaned) }
        if let windows = windowsZones[cleaned] ?? windowsZonesFolded[cleaned.lowercased()] { names.append(windows) }
        let parts = cleaned.split(separator: "/", omittingEmptySubsequences: true)
        if parts.count > 1 {
            for start in 1..<parts.count { names.append(parts[start...].joined(separator: "/")) }
        }
        return names
    }

    /// ``windowsZones`` by lowercased name (exports do not always keep the case).
    static let windowsZonesFolded: [String: String] = Dictionary(
        windowsZones.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
}

extension String {
    /// Without the given characters at either end.
    func trimmingCharacters(_ set: String) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text.removeFirst() }
        while let last = text.last, set.contains(last) { text.removeLast() }
        return String(text)
    }
}
