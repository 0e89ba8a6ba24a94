import Foundation
import Testing
@testable import KanbanCore

@Suite struct ISO8601Tests {
    /// 2026-01-05T10:00:00Z, the instant most cases below spell in different ways.
    static let reference: TimeInterval = 1_767_607_200

    @Test(arguments: [
        "2026-01-05T10:00:00Z",
        "2026-01-05T10:00:00z",
        "2026-01-05t10:00:00Z",
        "2026-01-05 10:00:00Z",
        "2026-01-05T11:00:00+01:00",
        "2026-01-05T11:00:00+0100",
        "2026-01-05T11:00:00+01",
        "2026-01-05T04:30:00-05:30",
        "2026-01-05T05:00:00-0500",
        "2026-01-05T10:00:00+00:00",
        "2026-01-05T10:00:00-00:00",
        "2026-01-05T10:00Z",
        "2026-01-05T10:00:00.000Z",
        "2026-01-05T23:00:00+13:00",
    ])
    func parsesTheSameInstantWrittenInManyWays(text: String) throws {
        let date = try #require(ISO8601.date(from: text))
        #expect(date.timeIntervalSince1970 == Self.reference)
    }

    @Test func anOffsetMovesTheInstantAcrossMidnight() throws {
        let date = try #require(ISO8601.date(from: "2026-01-05T01:00:00+02:00"))
        #expect(ISO8601.string(from: date) == "2026-01-04T23:00:00Z")
    }

    @Test(arguments: [
        ("2026-01-05T10:00:00.250Z", 0.25),
        ("2026-01-05T10:00:00.5Z", 0.5),
        ("2026-01-05T10:00:00,5Z", 0.5),
        ("2026-01-05T10:00:00.125+00:00", 0.125),
        ("2026-01-05T11:00:00.75+01:00", 0.75),
    ])
    func parsesFractionalSeconds(text: String, fraction: Double) throws {
        let date = try #require(ISO8601.date(from: text))
        #expect(abs(date.timeIntervalSince1970 - (Self.reference + fraction)) < 1e-6)
    }

    @Test func aBareDateIsMidnightUTC() throws {
        let date = try #require(ISO8601.date(from: "2026-01-05"))
        #expect(date.timeIntervalSince1970 == Self.reference - 10 * 3600)
    }

    @Test func aTimestampWithoutAZoneIsTakenAsUTC() throws {
        let date = try #require(ISO8601.date(from: "2026-01-05T10:00:00"))
        #expect(date.timeIntervalSince1970 == Self.reference)
    }

    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0.0),
        ("1970-01-02T00:00:00Z", 86_400.0),
        ("1969-12-31T23:59:59Z", -1.0),
        ("2000-01-01T00:00:00Z", 946_684_800.0),
        ("2000-02-29T00:00:00Z", 951_782_400.0),
        ("2001-09-09T01:46:40Z", 1_000_000_000.0),
        ("2038-01-19T03:14:07Z", 2_147_483_647.0),
        ("2026-05-28T20:26:40Z", 1_780_000_000.0),
    ])
    func knownEpochValues(text: String, seconds: TimeInterval) throws {
        let date = try #require(ISO8601.date(from: text))
        #expect(date.timeIntervalSince1970 == seconds)
        #expect(ISO8601.string(from: Date(timeIntervalSince1970: seconds)) == text)
    }

    @Test(arguments: [
        "",
        "yesterday-ish",
        "2026",
        "2026-01",
        "2026-1-5",
        "26-01-05",
        "2026/01/05",
        "2026-13-01",
        "2026-00-10",
        "2026-01-00",
        "2026-01-32",
        "2026-02-29",
        "2026-02-30",
        "2026-04-31",
        "1900-02-29",
        "2026-01-05T",
        "2026-01-05T10",
        "2026-01-05T10:0",
        "2026-01-05T24:00:00Z",
        "2026-01-05T10:60:00Z",
        "2026-01-05T10:00:61Z",
        "2026-01-05T10:00:00.Z",
        "2026-01-05T10:00:00ZZ",
        "2026-01-05T10:00:00Z ",
        " 2026-01-05T10:00:00Z",
        "2026-01-05T10:00:00Zjunk",
        "2026-01-05T10:00:00+1",
        "2026-01-05T10:00:00+01:",
        "2026-01-05T10:00:00+01:0",
        "2026-01-05T10:00:00+01:00junk",
        "2026-01-05T10:00:00+24:00",
        "2026-01-05T10:00:00+01:60",
        "2026-01-05T10:00:00 UTC",
        "2026-01-05x",
        "2026-01-05Tab:cd:efZ",
        "２０２６-01-05",
    ])
    func rejectsWhatIsNotADate(text: String) {
        #expect(ISO8601.date(from: text) == nil)
    }

    @Test(arguments: ["2024-02-29", "2000-02-29", "2026-12-31", "2026-01-31", "2026-04-30"])
    func acceptsTheLastDayOfEachMonth(text: String) {
        #expect(ISO8601.date(from: text) != nil)
    }

    @Test(arguments: [
        "2026-01-05T10:00:00Z",
        "2026-01-05T10:00:00.250Z",
        "2026-01-05T10:00:00.001Z",
        "2026-01-05T10:00:00.999Z",
        "1969-12-31T23:59:59.500Z",
        "2026-12-31T23:59:59Z",
        "2400-02-29T12:00:00Z",
    ])
    func formatsWhatItParses(text: String) throws {
        let date = try #require(ISO8601.date(from: text))
        #expect(ISO8601.string(from: date) == text)
    }

    @Test func formatsWholeSecondsWithoutAFraction() {
        #expect(ISO8601.string(from: fixedNow) == fixedNowText)
        #expect(!ISO8601.string(from: Date(timeIntervalSince1970: 12)).contains("."))
    }

    @Test func roundsToMillisecondsAndCarriesIntoTheNextSecond() {
        #expect(ISO8601.string(from: Date(timeIntervalSince1970: 0.1234)) == "1970-01-01T00:00:00.123Z")
        #expect(ISO8601.string(from: Date(timeIntervalSince1970: 59.9996)) == "1970-01-01T00:01:00Z")
    }

    @Test func everyWholeSecondSurvivesFormattingAndParsing() throws {
        // A spread of instants, one roughly every 37 days over two centuries, with odd times of day.
        var seconds: Int64 = -2_208_988_800  // 1900-01-01
        while seconds < 4_102_444_800 {  // 2100-01-01
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let parsed = try #require(ISO8601.date(from: ISO8601.string(from: date)))
            #expect(parsed == date)
            seconds += 3_200_017
        }
    }

    @Test func parsingIgnoresTheFormattingOfTheOffset() throws {
        let withColon = try #require(ISO8601.date(from: "2026-06-30T18:45:10-05:30"))
        let without = try #require(ISO8601.date(from: "2026-06-30T18:45:10-0530"))
        #expect(withColon == without)
        #expect(ISO8601.string(from: withColon) == "2026-07-01T00:15:10Z")
    }

    @Test func dayStringIsTheUTCDate() throws {
        #expect(ISO8601.dayString(from: fixedNow) == "2026-05-28")
        let lateInNewYork = try #require(ISO8601.date(from: "2026-05-28T22:00:00-05:00"))
        #expect(ISO8601.dayString(from: lateInNewYork) == "2026-05-29")
    }

    @Test func theLocalDayIsTheDayInTheTimeZone() throws {
        let evening = try #require(ISO8601.date(from: "2026-11-28T15:30:00Z"))
        #expect(ISO8601.dayString(from: evening, in: try #require(TimeZone(identifier: "Pacific/Kiritimati"))) == "2026-11-29")
        #expect(ISO8601.dayString(from: evening, in: try #require(TimeZone(identifier: "Pacific/Pago_Pago"))) == "2026-11-28")
        #expect(ISO8601.dayString(from: evening, in: try #require(TimeZone(identifier: "UTC"))) == "2026-11-28")
    }
}
