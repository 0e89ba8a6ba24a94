import Testing

@testable import KanbanServer

@Suite struct HTTPRequestParserTests {
    private func parse(_ text: String, limits: HTTPLimits = HTTPLimits()) -> HTTPRequestParser.Outcome {
        HTTPRequestParser.parse(Array(text.utf8), limits: limits)
    }

    private func request(_ text: String) throws -> (HTTPRequest, Int) {
        guard case .request(let request, let consumed) = parse(text) else {
            Issue.record("not a request: \(parse(text))")
            throw Failure()
        }
        return (request, consumed)
    }

    private struct Failure: Error {}

    private func failure(_ text: String, limits: HTTPLimits = HTTPLimits()) -> HTTPStatus? {
        if case .failure(let error) = parse(text, limits: limits) { return error.status }
        return nil
    }

    @Test func readsTheRequestLineHeadersAndQuery() throws {
        let (request, consumed) = try request("GET /api/cards/fix%20it?q=label%3Abug+ui&x HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nX-A:  one \r\nx-a: two\r\n\r\nrest")
        #expect(request.method == "GET")
        #expect(request.pathSegments == ["api", "cards", "fix it"])
        #expect(request.query == ["q": "label:bug ui", "x": ""])
        #expect(request.header("HOST") == "127.0.0.1:8080")
        #expect(request.header("X-A") == "one, two")
        #expect(request.keepsAlive)
        #expect(consumed == "GET /api/cards/fix%20it?q=label%3Abug+ui&x HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nX-A:  one \r\nx-a: two\r\n\r\n".utf8.count)
    }

    @Test func waitsForTheWholeHeaderAndBody() {
        guard case .incomplete(headerComplete: false, _) = parse("GET / HTTP/1.1\r\nHost: a\r\n") else {
            Issue.record("a header block without its blank line is incomplete")
            return
        }
        guard case .incomplete(headerComplete: true, expectsContinue: false) = parse("POST /api/cards HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n{\"a\"") else {
            Issue.record("a body shorter than its Content-Length is incomplete")
            return
        }
        guard case .request(let request, _) = parse("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\n{}{}GET") else {
            Issue.record("a whole request is read")
            return
        }
        #expect(request.body == Array("{}{}".utf8))
    }

    @Test func acceptsBareLineFeedsAndHTTP10() throws {
        let (request, _) = try request("GET /assets/app.css HTTP/1.0\nConnection: keep-alive\n\n")
        #expect(request.pathSegments == ["assets", "app.css"])
        #expect(request.keepsAlive)
        let (closing, _) = try self.request("GET / HTTP/1.0\r\n\r\n")
        #expect(!closing.keepsAlive)
    }

    @Test(arguments: [
        ("GARBAGE\r\n\r\n", 400),
        ("GET /\r\nHost: a\r\n\r\n", 400),
        ("GET http://evil/ HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505),
        ("GET / HTTP/1.1\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nBad Name: x\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", 411),
        ("GET /api/cards/..%2F..%2Fetc HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("GET /api/../board HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("GET /api/%ZZ HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("GET /a%00b HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    ])
    func refusesMalformedRequests(text: String, status: Int) {
        #expect(failure(text)?.code == status, "\(text)")
    }

    @Test func enforcesTheLimitsBeforeReadingEverything() {
        var limits = HTTPLimits()
        limits.body = 10
        #expect(failure("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n", limits: limits)?.code == 413)
        #expect(failure("GET /" + String(repeating: "a", count: 9000), limits: HTTPLimits())?.code == 414)
        let many = (0..<101).map { "X-\($0): y\r\n" }.joined()
        #expect(failure("GET / HTTP/1.1\r\nHost: a\r\n" + many + "\r\n")?.code == 431)
        let huge = "GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + String(repeating: "b", count: 17 * 1024)
        #expect(failure(huge)?.code == 431, "refused before the header block ends")
    }

    @Test func percentDecodingRejectsBrokenEscapesAndInvalidUTF8() {
        #expect(HTTPRequestParser.percentDecoded("a%2Fb+c", plusIsSpace: true) == "a/b c")
        #expect(HTTPRequestParser.percentDecoded("%E2%82%AC", plusIsSpace: false) == "€")
        #expect(HTTPRequestParser.percentDecoded("%E2%82", plusIsSpace: false) == nil)
        #expect(HTTPRequestParser.percentDecoded("%4", plusIsSpace: false) == nil)
    }

    @Test func blankLinesBeforeTheRequestLineCountAgainstTheHeaderLimit() {
        let limits = HTTPLimits(requestLine: 64, headerBlock: 256, headerCount: 10, body: 1024)
        guard case .failure(let error) = HTTPRequestParser.parse(Array(String(repeating: "\r\n", count: 200).utf8), limits: limits) else {
            Issue.record("400 bytes of blank lines were buffered")
            return
        }
        #expect(error.status.code == 431)
        guard case .failure = HTTPRequestParser.parse(Array((String(repeating: "\n", count: 200) + "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "y", count: 60) + "\r\n\r\n").utf8),
                                                     limits: limits) else {
            Issue.record("blank lines and a header over the limit together were taken")
            return
        }
        guard case .request = HTTPRequestParser.parse(Array("\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8), limits: limits) else {
            Issue.record("a few blank lines before a request are allowed")
            return
        }
    }

    @Test func expectContinueIsReportedWhileTheBodyIsMissingAndOtherExpectationsFail() {
        let head = "POST /x HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n"
        guard case .incomplete(headerComplete: true, expectsContinue: true) = parse(head) else {
            Issue.record("Expect: 100-continue was not reported")
            return
        }
        guard case .request = parse(head + "{}{}") else {
            Issue.record("the body after 100-continue was not read")
            return
        }
        guard case .failure(let error) = parse("POST /x HTTP/1.1\r\nHost: a\r\nExpect: coffee\r\nContent-Length: 4\r\n\r\n") else {
            Issue.record("an unknown expectation was accepted")
            return
        }
        #expect(error.status.code == 417)
    }
}
