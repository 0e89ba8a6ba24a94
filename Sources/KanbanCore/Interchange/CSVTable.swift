import Foundation

/// A table in CSV (RFC 4180): records of fields separated by commas, a field in double quotes when it holds a comma,
/// a quote or a line break, a quote inside written twice. Reads CRLF and LF line ends and a UTF-8 byte order mark;
/// writes CRLF, as the RFC says, and quotes only the fields that need it.
///
/// ```swift
/// let table = try CSVTable(parsing: Array("title,column\r\n\"Fix, now\",todo\r\n".utf8), path: "cards.csv")
/// table.rows[0]  // ["Fix, now", "todo"]
/// ```
public struct CSVTable: Sendable, Hashable {
    /// The first record: the names of the columns.
    public var header: [String]
    /// The other records, each as many fields as the header.
    public var rows: [[String]]

    /// The most bytes a table may have (larger files are refused before they are read whole).
    public static let largestFile = 64 << 20

    /// Creates a table.
    public init(header: [String], rows: [[String]]) {
        self.header = header
        self.rows = rows
    }

    /// Reads `bytes` as CSV with a header row.
    /// - Parameter path: How errors name the file.
    /// - Throws: ``KanbanError/Code/invalidArgument`` at `path:line:column` for text that is not UTF-8, a quote left
    ///   open, a quote inside an unquoted field or after a closing quote, a record of another length than the header,
    ///   an empty or duplicate column name, no header, or a file over ``largestFile``.
    public init(parsing bytes: [UInt8], path: String) throws(KanbanError) {
        func failure(_ message: String, line: Int, column: Int? = nil) -> KanbanError {
            KanbanError(.invalidArgument, message, at: SourceLocation(path: path, line: line, column: column))
        }
        guard bytes.count <= Self.largestFile else {
            throw failure("the file is \(bytes.count) bytes, over the \(Self.largestFile >> 20) MB a table may have", line: 1)
        }
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        guard String(validating: bytes[start...], as: UTF8.self) != nil else { throw failure("the file is not UTF-8 text", line: 1) }
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var index = start
        var line = 1
        var recordLine = 1
        var lineStart = start
        var isQuoted = false
        var wasQuoted = false
        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            wasQuoted = false
        }
        func endRecord() {
            endField()
            // A line with nothing on it is no record (a final line break, a blank line between records).
            if !(fields.count == 1 && fields[0].isEmpty) { records.append((recordLine, fields)) }
            fields = []
        }
        while index < bytes.count {
            let byte = bytes[index]
            if isQuoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 2
                        continue
                    }
                    isQuoted = false
                    wasQuoted = true
                } else {
                    if byte == 0x0A {
                        line += 1
                        lineStart = index + 1
                    }
                    field.append(byte)
                }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: ","):
                endField()
            case 0x0D where index + 1 < bytes.count && bytes[index + 1] == 0x0A:
                break
            case 0x0A:
                endRecord()
                line += 1
                lineStart = index + 1
                recordLine = line
            case UInt8(ascii: "\""):
                guard field.isEmpty && !wasQuoted else {
                    throw failure("a quote inside a field that is not quoted (quote the whole field, and write a quote in it as \"\")",
                                  line: line, column: index - lineStart + 1)
                }
                isQuoted = true
            default:
                guard !wasQuoted else {
                    throw failure("text after a field's closing quote", line: line, column: index - lineStart + 1)
                }
                field.append(byte)
            }
            index += 1
        }
        if isQuoted { throw failure("a quoted field is never closed", line: recordLine) }
        if !field.isEmpty || !fields.isEmpty || wasQuoted { endRecord() }
        guard let first = records.first else { throw failure("the file holds no header row", line: 1) }
        var seen: Set<String> = []
        for (offset, name) in first.fields.enumerated() {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { throw failure("column \(offset + 1) of the header has no name", line: first.line) }
            guard seen.insert(trimmed.lowercased()).inserted else { throw failure("the header names '\(trimmed)' twice", line: first.line) }
        }
        for record in records.dropFirst() where record.fields.count != first.fields.count {
            throw failure("this record has \(record.fields.count) field\(record.fields.count == 1 ? "" : "s"), the header \(first.fields.count)",
                          line: record.line)
        }
        header = first.fields.map { $0.trimmingCharacters(in: .whitespaces) }
        rows = records.dropFirst().map(\.fields)
    }

    /// The table as CSV: CRLF line ends, a field quoted when it holds a comma, a quote, a line break or space at an
    /// end (which spreadsheets trim).
    public func text() -> String {
        var text = ""
        func write(_ record: [String]) {
            text += record.map(Self.field).joined(separator: ",")
            text += "\r\n"
        }
        write(header)
        for row in rows { write(row) }
        return text
    }

    static func field(_ value: String) -> String {
        // By scalar: "\r\n" is one Character, and a bare "\n" would not be found among the characters of "\",\r\n".
        let needsQuotes = value.unicodeScalars.contains { $0 == "\"" || $0 == "," || $0 == "\r" || $0 == "\n" }
            || value.first?.isWhitespace == true || value.last?.isWhitespace == true
        guard needsQuotes else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The value of column `name` (ignoring case) in `row`; nil when the table has no such column.
    public func value(_ name: String, in row: [String]) -> String? {
        header.firstIndex { $0.lowercased() == name.lowercased() }.map { row[$0] }
    }
}
