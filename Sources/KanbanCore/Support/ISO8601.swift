import Foundation

/// Reads and writes the ISO 8601 timestamps cards carry, without a formatter.
///
/// Parsing accepts `2026-01-05T10:00:00Z`, offsets (`+01:00`, `+0100`, `-05`), fractional seconds,
/// a space or lowercase `t` instead of `T`, and a bare date (`2026-01-05`, taken as midnight UTC).
/// Formatting always writes SimpleKanban's form, `2026-01-05T10:00:00Z`.
package enum ISO8601 {
    /// The date in `text`, or `nil` when it is not an ISO 8601 date or timestamp.
    package static func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(UnsafeBufferPointer(rebasing: $0[...])) }
    }

    /// The date in `bytes` (UTF-8 text), or `nil` when it is not an ISO 8601 date or timestamp.
    static func date(from bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        parse(bytes)
    }

    /// `2026-01-05T10:00:00Z` in UTC; fractional seconds are written as milliseconds only when present.
    package static func string(from date: Date) -> String {
        let parts = Parts(date)
        guard parts.fitsFourDigits else { return parts.text }
        // Digits written in place: `list --json` writes two timestamps for each of many cards.
        return String(unsafeUninitializedCapacity: parts.length, initializingUTF8With: parts.put)
    }

    /// Writes the text ``string(from:)`` gives into `buffer` (at least 24 bytes), making no string, and returns its
    /// length; nil, having written nothing, for a year that has not four digits.
    package static func write(_ date: Date, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        let parts = Parts(date)
        guard parts.fitsFourDigits, buffer.count >= parts.length else { return nil }
        return parts.put(into: buffer)
    }

    /// A date's fields in UTC, as the text shows them.
    private struct Parts {
        var year: Int64, month: Int64, day: Int64, secondOfDay: Int64
        /// 1–999; 0 when the text has no fraction.
        var milliseconds: Int

        init(_ date: Date) {
            let interval = date.timeIntervalSince1970
            var seconds = Int64(interval.rounded(.down))
            let milliseconds = Int((interval - Double(seconds)) * 1000 + 0.5)
            if milliseconds >= 1000 { seconds += 1 }
            var days = seconds / 86_400
            secondOfDay = seconds % 86_400
            if secondOfDay < 0 {
                secondOfDay += 86_400
                days -= 1
            }
            (year, month, day) = ISO8601.civil(fromDays: days)
            self.milliseconds = milliseconds > 0 && milliseconds < 1000 ? milliseconds : 0
        }

        var fitsFourDigits: Bool { (0...9999).contains(year) }
        var length: Int { milliseconds > 0 ? 24 : 20 }

        /// Writes the text of a four-digit year into `buffer` (at least ``length`` bytes); returns ``length``.
        func put(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
            func put(_ value: Int64, _ width: Int, at offset: Int, then separator: UInt8) {
                var rest = value
                for index in (offset..<(offset + width)).reversed() {
                    buffer[index] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
                    rest /= 10
                }
                buffer[offset + width] = separator
            }
            put(year, 4, at: 0, then: UInt8(ascii: "-"))
            put(month, 2, at: 5, then: UInt8(ascii: "-"))
            put(day, 2, at: 8, then: UInt8(ascii: "T"))
            put(secondOfDay / 3600, 2, at: 11, then: UInt8(ascii: ":"))
            put(secondOfDay / 60 % 60, 2, at: 14, then: UInt8(ascii: ":"))
            put(secondOfDay % 60, 2, at: 17, then: milliseconds > 0 ? UInt8(ascii: ".") : UInt8(ascii: "Z"))
            if milliseconds > 0 { put(Int64(milliseconds), 3, at: 20, then: UInt8(ascii: "Z")) }
            return length
        }

        /// The text for any year (one past four digits, or before year 0, too).
        var text: String {
            var result = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
            result += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
            if milliseconds > 0 { result += "." + pad(Int64(milliseconds), 3) }
            return result + "Z"
        }

        private func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
    }

    /// `2026-01-05` in UTC.
    package static func dayString(from date: Date) -> String {
        String(string(from: date).prefix(10))
    }

    /// `2026-01-05`, the day `date` falls on in `timeZone`: archive file names start with the local day, as the
    /// SimpleKanban app names them.
    package static func dayString(from date: Date, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        func padded(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(parts.year, 4))-\(padded(parts.month, 2))-\(padded(parts.day, 2))"
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var index = 0
        func number(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<count {
                let byte = bytes[index + offset]
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
              let day = number(2), (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let days = Self.days(fromCivil: Int64(year), Int64(month), Int64(day))
        if index == bytes.count { return Date(timeIntervalSince1970: Double(days) * 86_400) }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "T") || bytes[index] == UInt8(ascii: "t")
                || bytes[index] == UInt8(ascii: " ") else { return nil }
        index += 1
        guard let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2), hour < 24, minute < 60
        else { return nil }
        var second = 0
        var fraction = 0.0
        if expect(UInt8(ascii: ":")) {
            guard let value = number(2), value <= 60 else { return nil }
            second = value
            if index < bytes.count && (bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",")) {
                index += 1
                var scale = 0.1
                let start = index
                while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 {
                    fraction += Double(bytes[index] - 0x30) * scale
                    scale /= 10
                    index += 1
                }
                guard index > start else { return nil }
            }
        }
        var offsetSeconds = 0
        if index < bytes.count {
            let sign = bytes[index]
            if sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z") {
                index += 1
            } else if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                index += 1
                guard let offsetHours = number(2), offsetHours < 24 else { return nil }
                var offsetMinutes = 0
                if index < bytes.count {
                    _ = expect(UInt8(ascii: ":"))
                    guard let value = number(2), value < 60 else { return nil }
                    offsetMinutes = value
                }
                offsetSeconds = (offsetHours * 3600 + offsetMinutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
            } else {
                return nil
            }
        }
        guard index == bytes.count else { return nil }
        let total = Double(days) * 86_400 + Double(hour * 3600 + minute * 60 + second - offsetSeconds) + fraction
        return Date(timeIntervalSince1970: total)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days, valid for the proleptic Gregorian calendar.
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Date {
    /// The date without its fraction of a second, as cards' `modified` times are written.
    package var flooredToSeconds: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
