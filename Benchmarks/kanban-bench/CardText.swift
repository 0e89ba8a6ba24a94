/// The words generated cards are made of: titles from phrases with their slugs spelled out in advance (so no
/// per-card lowercasing), bodies from a vocabulary varied enough that no two cards read alike.
enum CardText {
    /// The word every card body contains, in its last heading, for the `grep` baseline to find.
    static let wordInEveryCard = "criteria"

    /// (title, slug) pairs.
    static let verbs: [(String, String)] = [
        ("Fix", "fix"), ("Add", "add"), ("Remove", "remove"), ("Refactor", "refactor"), ("Investigate", "investigate"),
        ("Document", "document"), ("Update", "update"), ("Migrate", "migrate"), ("Speed up", "speed-up"),
        ("Polish", "polish"), ("Support", "support"), ("Test", "test"), ("Review", "review"), ("Design", "design"),
        ("Clean up", "clean-up"), ("Profile", "profile"), ("Localize", "localize"), ("Redesign", "redesign"),
    ]

    static let subjects: [(String, String)] = [
        ("thumbnail cache", "thumbnail-cache"), ("login flow", "login-flow"), ("export dialog", "export-dialog"),
        ("sync engine", "sync-engine"), ("search index", "search-index"), ("settings page", "settings-page"),
        ("print preview", "print-preview"), ("onboarding tour", "onboarding-tour"), ("crash reporter", "crash-reporter"),
        ("update channel", "update-channel"), ("color picker", "color-picker"), ("keyboard shortcuts", "keyboard-shortcuts"),
        ("metadata editor", "metadata-editor"), ("import queue", "import-queue"), ("tag browser", "tag-browser"),
        ("album sharing", "album-sharing"), ("backup service", "backup-service"), ("release notes", "release-notes"),
        ("Windows installer", "windows-installer"), ("help center", "help-center"), ("map view", "map-view"),
        ("face grouping", "face-grouping"), ("RAW decoder", "raw-decoder"), ("slideshow export", "slideshow-export"),
        ("database migration", "database-migration"), ("EXIF parser", "exif-parser"), ("undo stack", "undo-stack"),
        ("sidebar", "sidebar"), ("smart albums", "smart-albums"), ("web gallery", "web-gallery"),
    ]

    static let qualifiers: [(String, String)] = [
        ("", ""), ("", ""), ("", ""), (" on Windows", "-on-windows"), (" for large libraries", "-for-large-libraries"),
        (" after upgrade", "-after-upgrade"), (" in dark mode", "-in-dark-mode"), (" on first launch", "-on-first-launch"),
        (" for RAW files", "-for-raw-files"), (" when offline", "-when-offline"), (" on slow disks", "-on-slow-disks"),
        (" for screen readers", "-for-screen-readers"), (" on macOS 15", "-on-macos-15"), (" in the beta", "-in-the-beta"),
    ]

    static let words: [String] = [
        "the", "grid", "cache", "keeps", "every", "request", "after", "scrolling", "memory", "grows", "until", "restart",
        "import", "stalls", "when", "folder", "contains", "thousands", "of", "photos", "users", "report", "crash",
        "on", "launch", "with", "corrupted", "thumbnails", "sync", "drops", "changes", "made", "offline", "export",
        "ignores", "color", "profile", "and", "metadata", "dialog", "shows", "wrong", "size", "for", "portrait",
        "images", "search", "misses", "tags", "added", "from", "mobile", "app", "settings", "reset", "install",
        "fails", "without", "admin", "rights", "timeline", "jumps", "back", "to", "top", "slideshow", "stutters",
        "external", "displays", "backup", "skips", "hidden", "albums", "quietly", "faces", "merge", "different",
        "people", "map", "pins", "land", "in", "ocean", "undo", "forgets", "edits", "batch", "rename", "locale",
        "dates", "printing", "clips", "margins", "on", "letter", "paper", "trash", "empties", "before", "confirmation",
        "video", "previews", "lose", "audio", "tooltips", "flicker", "hover", "sidebar", "collapses", "itself",
        "shortcuts", "conflict", "system", "defaults", "cloud", "quota", "warning", "appears", "twice", "tablet",
        "layout", "overlaps", "toolbar", "migration", "takes", "minutes", "per", "library", "large", "raw",
        "files", "decode", "slowly", "network", "shares", "time", "out", "during", "long", "copies", "release",
        "notes", "need", "screenshots", "translations", "are", "missing", "German", "Japanese", "Portuguese",
    ]

    static let capitalizedWords: [String] = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }

    static let checklistItems: [String] = [
        "Reproduce on a clean install", "Write a failing test", "Profile with Instruments", "Check the Windows build",
        "Update the user guide", "Ask design for a review", "Measure before and after", "Add a release note",
        "Verify with a 40k-photo library", "Run the soak test overnight", "Review the crash logs",
        "Confirm with the reporter", "Check accessibility labels", "Try it on a slow disk", "Backport to 1.9",
        "Update the screenshots", "Add telemetry for the fix", "Remove the feature flag",
    ]

    static let acceptance: [String] = [
        "Memory stays flat after five full scrolls.", "No regressions in the nightly UI tests.",
        "The fix ships behind no flag and needs no migration.", "Works the same on macOS and Windows.",
        "Import of 10k photos finishes in under two minutes.", "A screen reader announces every control.",
        "The reporter confirms the fix in the beta.", "Docs and release notes describe the change.",
    ]

    static let assignees = ["ana", "raj", "tomas", "mei", "oluwaseun", "ingrid", "diego", "yuki"]
    static let columnIDs = ["backlog", "todo", "doing", "review", "done"]
    static let columnNames = ["Backlog", "To Do", "Doing", "Review", "Done"]
    /// Percent of cards in each column.
    static let columnWeights = [30, 20, 10, 10, 30]
    static let labels: [(id: String, name: String, color: String)] = [
        ("feature", "Feature", "#3498db"), ("bug", "Bug", "#e74c3c"), ("design", "Design", "#9b59b6"),
        ("docs", "Docs", "#27ae60"), ("infra", "Infra", "#f39c12"), ("marketing", "Marketing", "#e91e63"),
    ]

    /// The order key `rank` would have after `rank + 1` appends to an empty column: the integer part of the
    /// fractional-indexing scheme in FORMAT.md (`a0` ... `az`, `b10` ... `bzz`, `c100` ...).
    static func positionKey(rank: Int) -> String {
        precondition(rank >= 0, "ranks start at 0")
        var digits: [UInt8] = []
        var value = rank
        repeat {
            digits.append(base62[value % 62])
            value /= 62
        } while value > 0
        let head = UInt8(ascii: "a") + UInt8(digits.count - 1)
        return String(decoding: [head] + digits.reversed(), as: UTF8.self)
    }

    private static let base62 = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
}

/// Appends text to a byte buffer; numbers are written digit by digit, with no formatter.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func write(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func write(_ number: Int, width: Int = 1) {
        var digits: [UInt8] = []
        var value = number
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(value % 10))
            value /= 10
        } while value > 0
        while digits.count < width { digits.append(UInt8(ascii: "0")) }
        bytes.append(contentsOf: digits.reversed())
    }

    /// `YYYY-MM-DD` for a day counted from 1970-01-01.
    mutating func writeDay(_ day: Int) {
        let (year, month, dayOfMonth) = civilDate(fromDay: day)
        write(year, width: 4)
        write("-")
        write(month, width: 2)
        write("-")
        write(dayOfMonth, width: 2)
    }

    /// `YYYY-MM-DDTHH:MM:00Z`.
    mutating func writeTimestamp(day: Int, minute: Int) {
        writeDay(day)
        write("T")
        write(minute / 60, width: 2)
        write(":")
        write(minute % 60, width: 2)
        write(":00Z")
    }
}

/// Year, month and day of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
func civilDate(fromDay day: Int) -> (year: Int, month: Int, day: Int) {
    let shifted = day + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let dayOfMonth = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfMonth)
}
