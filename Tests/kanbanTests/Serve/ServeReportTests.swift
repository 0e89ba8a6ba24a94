import Foundation
import Testing

/// The page's Report view: the options of `kanban report` from the address and a form, a way back, and a page
/// that fits its window in light and dark.
@Suite struct ServeReportTests {
    private func gitBoard(_ board: TemporaryBoard) throws {
        let environment = ["GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@e",
                           "HOME": board.root]
        for arguments in [["init", "-q"], ["add", "-A"], ["commit", "-qm", "Board"]] {
            let result = try runProgram("/usr/bin/env", ["git", "-C", board.path] + arguments, environment: environment)
            try #require(result.status == 0, "\(result.output)")
        }
    }

    @Test func theReportTakesTheCommandsOptionsFromTheAddress() throws {
        try withTemporaryBoard(.sample) { board in
            try gitBoard(board)
            let server = try ServeProcess(board: board)
            let plain = try server.get("/report")
            #expect(plain.status == 200, "\(plain)")
            #expect(plain.text.contains("<a href=\"./\">← Board</a>") && plain.text.contains("<form method=\"get\" action=\"report\">"))
            #expect(plain.text.contains("prefers-color-scheme: dark"))
            #expect(plain.header("Content-Security-Policy")?.contains("form-action 'self'") == true)
            let started = try server.get("/report?start=review&done=done&since=2026-01-01&label=bug")
            #expect(started.status == 200, "\(started)")
            #expect(started.text.contains("<option value=\"review\" selected>") && started.text.contains("<option value=\"bug\" selected>"))
            #expect(started.text.contains("value=\"2026-01-01\""))
            let wrong = try server.get("/report?start=nowhere")
            #expect(wrong.status == 400 && wrong.text.contains("no column") && wrong.text.contains("nowhere"), "\(wrong)")
            let backwards = try server.get("/report?start=done&done=todo")
            #expect(backwards.status == 400 && backwards.text.contains("comes after"), "\(backwards)")
            let endless = try server.get("/report?since=0001-01-01&until=9999-12-31")
            #expect(endless.status == 400 && endless.text.contains("longer than 7305 days"), "\(endless)")
            let two = try server.get("/report?label=bug,design")
            #expect(two.text.contains("<input name=\"label\" value=\"bug,design\">"), "several labels are lost by the form: \(two)")
            let badDate = try server.get("/report?since=yesterday")
            #expect(badDate.status == 400 && badDate.text.contains("is not a date"), "\(badDate)")
        }
    }

    @Test func theForecastAndTheSLEComeFromTheAddressAndAreChecked() throws {
        try withTemporaryBoard(.sample) { board in
            try gitBoard(board)
            let server = try ServeProcess(board: board)
            let sle = try server.get("/report?sle=70")
            #expect(sle.status == 200 && sle.text.contains("70% of cards finish within"), "\(sle)")
            #expect(sle.text.contains("name=\"sle\" min=\"1\" max=\"100\" placeholder=\"85\" value=\"70\""))
            // One commit is one day of history: too little to forecast from, said on the page with the form.
            let short = try server.get("/report?forecast=5")
            #expect(short.status == 400 && short.text.contains("too little history to forecast from"), "\(short)")
            #expect(short.text.contains("name=\"forecast\" min=\"1\" max=\"100000\" value=\"5\""))
            for query in ["forecast=0", "forecast=1e9", "forecast=99999999999999999999", "forecast=5&forecast-by=2027-01-01", "forecast-by=soon",
                          "sle=0", "sle=-5", "forecast=5&window=0", "forecast=5&seed=-1"] {
                let refused = try server.get("/report?" + query)
                #expect(refused.status == 400, "\(query): \(refused)")
            }
        }
    }
}
