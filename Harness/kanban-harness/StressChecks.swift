import Foundation

/// One of the stress adversary's checks: what it found wrong (nothing, when it held) and what it looked at.
struct StressCheck {
    var name: String
    var problems: [String] = []
    var note = ""
}

/// What the watcher did during the run.
struct StressWatchReport {
    /// Whether it was still running when the harness came to stop it.
    var wasRunning: Bool
    /// How long the harness waited after the workers had finished for the watcher's output to stop growing.
    var quietSeconds: Double
    /// Whether its output did stop growing (false: it still grew when the harness gave up waiting).
    var isQuiet: Bool
    /// How it ended after SIGTERM.
    var outcome: ChildProcess.Outcome
}

extension StressRunner {
    /// The slug a card file holds: `cards/<column>/<slug>.md`, `archive/<YYYY-MM-DD>-<slug>.md`.
    static func slug(ofCardPath path: String) -> String {
        var name = String((path.split(separator: "/").last ?? "").dropLast(3))
        if path.hasPrefix("archive/"), name.count > 11, name.dropFirst(10).first == "-" { name = String(name.dropFirst(11)) }
        return name
    }

    static func locations(in files: BoardFiles) -> [String: [String]] {
        Dictionary(grouping: files.cardPaths, by: slug(ofCardPath:))
    }

    /// The read commands that take cards from the board index, each compared with its output with `KANBAN_INDEX=off`:
    /// the whole board (as JSON, from cards the index gives, and as text, listed from the index's bytes with no card
    /// made when every entry holds), and searches that the index decides from titles alone (a `title:` word rules
    /// cards out before they are decoded) and with the bodies.
    static let indexedReads: [[String]] = [["list", "--all", "--json"], ["list", "--all"], ["search", "--json", "title:retitled"],
                                          ["search", "--json", "retitled", "-title:seed"]]

    /// What is wrong when one of ``indexedReads`` does not print the same as with `KANBAN_INDEX=off` (nothing when
    /// each does); `what` names what the first run used.
    private func readDisagreement(with what: String) throws -> [String] {
        var problems: [String] = []
        for arguments in Self.indexedReads {
            let command = "kanban " + arguments.joined(separator: " ")
            let indexed = try runKanban(arguments)
            let unindexed = try BoardProcesses.run(kanban, arguments, in: board,
                                                   environment: environment.merging(["KANBAN_INDEX": "off"]) { $1 }, timeout: 120)
            // A search that finds nothing exits 1, as grep does; anything else is a failure.
            func answered(_ outcome: ChildProcess.Outcome) -> Bool {
                outcome.succeeded || (outcome.status == 1 && outcome.signal == nil && !outcome.timedOut && arguments[0] == "search")
            }
            if !answered(indexed) || !answered(unindexed) {
                problems.append("\(command): \(answered(indexed) ? unindexed : indexed)")
            } else if indexed.status != unindexed.status || indexed.output != unindexed.output {
                problems.append("\(command) prints otherwise with \(what) than with KANBAN_INDEX=off")
            }
        }
        return problems
    }

    /// While `kanban watch` (on inotify) still runs, after the workers: `list --all --json` trusting the watcher's
    /// board monitor (it looks only at the files the monitor names as changed since the index's token) must print
    /// what it prints with no index. Nil when the watcher polls (it runs no monitor) or has stopped.
    func checkWithMonitor(isWatching: Bool) throws -> StressCheck? {
        guard isWatching else { return nil }
        var check = StressCheck(name: "the board index and the watcher's board monitor agree with the files")
        var rounds = 0
        // Twice: the first list may write the index with the monitor's first token, the second trusts it.
        for _ in 0..<2 {
            check.problems += try readDisagreement(with: "the index and the monitor")
            rounds += 1
        }
        check.note = "list --all --json, list --all and two searches, \(rounds) times while kanban watch ran, the same as with KANBAN_INDEX=off"
        return check
    }

    /// Runs every check after the workers have finished and the watcher has stopped.
    func check(_ operations: [StressOperation], watch: StressWatchReport) throws -> [StressCheck] {
        var checks: [StressCheck] = []
        // The working tree as the workers left it, for comparing with HEAD; doctor --fix may repair positions.
        let worktree = try BoardFiles(reading: board)

        // The board index as the workers left it (in .git/kanban-index): what it gives must be what the files say.
        var index = StressCheck(name: "the board index agrees with the files")
        let doctorBefore = try runKanban(["doctor", "--json"])
        if doctorBefore.output.contains("\"index-disagrees\"") { index.problems.append("kanban doctor: \(doctorBefore.output)") }
        index.problems += try readDisagreement(with: "the index")
        index.note = "list --all --json, list --all and two searches the same with the index and without; doctor finds no entry that disagrees"
        checks.append(index)

        var doctor = StressCheck(name: "kanban doctor reports no errors (after doctor --fix)")
        let fix = try runKanban(["doctor", "--fix"])
        let repairs = fix.output.split(separator: "\n").filter { $0.hasPrefix("fixed ") }
        doctor.note = repairs.isEmpty ? "doctor --fix repaired nothing" : "doctor --fix repaired \(repairs.count): " + repairs.prefix(5).joined(separator: "; ")
        let checked = try runKanban(["doctor"])
        if !checked.succeeded { doctor.problems.append("kanban doctor: \(checked)") }

        let board = try BoardFiles(reading: self.board)
        let locations = StressRunner.locations(in: board)
        let made = operations.filter { $0.effect.madeChange && !$0.card.isEmpty }
        var expected = Set(StressRunner.seedCards)
        for operation in made where operation.kind == .add { expected.insert(operation.card) }
        for operation in made where operation.kind == .delete { expected.remove(operation.card) }

        var lost = StressCheck(name: "no card lost", note: "\(expected.count) cards expected, \(locations.count) found")
        for slug in expected.sorted() where locations[slug] == nil {
            lost.problems.append("\(slug) is gone; its changes: " + history(of: slug, in: operations))
        }
        var duplicates = StressCheck(name: "no card twice, no card that should not exist")
        for (slug, paths) in locations.sorted(by: { $0.key < $1.key }) {
            if paths.count > 1 { duplicates.problems.append("\(slug) is in \(paths.count) files: \(paths.joined(separator: ", "))") }
            if !expected.contains(slug) {
                duplicates.problems.append("\(slug) exists (\(paths.joined(separator: ", "))) but was never added or was deleted; its changes: " + history(of: slug, in: operations))
            }
        }
        var leftovers = StressCheck(name: "no temporary file or journal left")
        if !board.leftovers.isEmpty { leftovers.problems.append("left: " + board.leftovers.joined(separator: ", ")) }
        checks += [lost, duplicates, doctor, leftovers]
        checks += try checkGit(operations, worktree: worktree)
        checks.append(checkWatch(watch))
        checks.append(checkWatchEvents(watch, board: worktree))
        return checks
    }

    /// Every change of a card, for a report.
    private func history(of slug: String, in operations: [StressOperation]) -> String {
        let changes = operations.filter { $0.card == slug }.sorted { $0.ended < $1.ended }
        guard !changes.isEmpty else { return "none" }
        return changes.suffix(25).map { "\n        " + $0.logLine }.joined()
    }

    // MARK: Git

    private func checkGit(_ operations: [StressOperation], worktree: BoardFiles) throws -> [StressCheck] {
        var history = StressCheck(name: "every commit a command printed is in HEAD's history; git fsck is clean")
        let revisions = try runGit(["rev-list", "HEAD"])
        let commits = revisions.output.split(separator: "\n").map(String.init)
        let printed = operations.compactMap(\.commit)
        for hash in printed where !commits.contains(where: { $0.hasPrefix(hash) }) {
            history.problems.append("commit \(hash) was printed but is not in HEAD's history")
        }
        history.note = "\(printed.count) commits printed, \(max(0, commits.count - 1)) in the history after the first"
        if commits.count - 1 != printed.count {
            history.problems.append("\(commits.count - 1) commits in the history after the first, but \(printed.count) printed")
        }
        let fsck = try runGit(["fsck", "--no-progress"])
        if !fsck.succeeded || fsck.errorOutput.contains("error") || fsck.output.contains("missing") || fsck.output.contains("broken") {
            history.problems.append("git fsck: \(fsck)")
        }
        let status = try runGit(["status", "--porcelain"])
        if !status.succeeded { history.problems.append("git status fails: \(status)") }

        var head = StressCheck(name: "HEAD agrees with the working tree for every card whose last change was committed")
        let tree = try headTree()
        let headLocations = StressRunner.locations(in: tree)
        let worktreeLocations = StressRunner.locations(in: worktree)
        for (slug, paths) in headLocations.sorted(by: { $0.key < $1.key }) where paths.count > 1 {
            head.problems.append("HEAD holds \(slug) \(paths.count) times: \(paths.joined(separator: ", ")); its changes:" + self.history(of: slug, in: operations))
        }

        let made = operations.filter { $0.effect.madeChange && !$0.card.isEmpty }
        let changes = Dictionary(grouping: made, by: \.card)
        var unjudged = 0
        var rekeyed = 0
        /// A card's last change, and whether another change of it overlapped that one in time (so the order of the
        /// two is unknown).
        func last(_ slug: String) -> (operation: StressOperation, isAmbiguous: Bool)? {
            guard let list = changes[slug], let last = list.max(by: { $0.ended < $1.ended }) else { return nil }
            let overlapped = list.contains { ($0.worker, $0.index) != (last.worker, last.index) && $0.ended > last.started }
            return (last, overlapped)
        }

        for slug in changes.keys.sorted() {
            guard let (operation, isAmbiguous) = last(slug), operation.commit != nil else { continue }
            if isAmbiguous {
                unjudged += 1
                continue
            }
            let paths = worktreeLocations[slug] ?? []
            if operation.kind == .delete {
                if let held = headLocations[slug] {
                    head.problems.append("\(slug) was deleted with a commit, but HEAD still holds \(held.joined(separator: ", "))")
                }
                continue
            }
            guard paths.count == 1, let path = paths.first else { continue }
            guard let committed = tree.files[path] else {
                head.problems.append("HEAD lacks \(path), though the last change of \(slug) was committed:" + self.history(of: slug, in: operations))
                continue
            }
            guard committed != worktree.files[path] else { continue }
            let laterPlacing = made.contains { $0.commit == nil && $0.kind.places && $0.ended > operation.started }
            if laterPlacing && StressRunner.differOnlyInPosition(committed, worktree.files[path] ?? []) {
                rekeyed += 1
                continue
            }
            head.problems.append("HEAD's \(path) differs from the working tree's, though the last change of \(slug) was committed:" + self.history(of: slug, in: operations))
        }

        // A path HEAD holds and the working tree lacks was taken away by a change not committed yet: the card's
        // last change of place (move, archive, unarchive, delete) is uncommitted, and no commit of the card came
        // after it (a commit then records the card's new path and leaves the old one in HEAD: the card twice).
        for path in tree.cardPaths where worktree.files[path] == nil {
            let slug = StressRunner.slug(ofCardPath: path)
            guard (headLocations[slug]?.count ?? 0) < 2 else { continue }  // reported above
            let list = changes[slug] ?? []
            guard let move = list.filter({ $0.kind.changesPath }).max(by: { $0.ended < $1.ended }) else {
                head.problems.append("HEAD holds \(path), which the working tree lacks, though no command moved, reordered, archived or deleted \(slug):" + self.history(of: slug, in: operations))
                continue
            }
            let laterCommits = list.filter { $0.commit != nil && $0.ended > move.started && ($0.worker, $0.index) != (move.worker, move.index) }
            if move.commit == nil && laterCommits.isEmpty { continue }
            if laterCommits.contains(where: { $0.started < move.ended }) {
                unjudged += 1
                continue
            }
            let why = move.commit != nil ? "its last change of place was committed" : "a later commit of the card left it there"
            head.problems.append("HEAD holds \(path), which the working tree lacks: \(why):" + self.history(of: slug, in: operations))
        }
        head.note = "\(tree.cardPaths.count) cards in HEAD; \(unjudged) not judged (their last two changes overlapped in time), \(rekeyed) differing only in a position rewritten by a later uncommitted change"
        return [history, head]
    }

    /// The board's files in HEAD.
    private func headTree() throws -> BoardFiles {
        let extracted = work + "/head"
        BoardFiles.remove(extracted)
        defer { BoardFiles.remove(extracted) }
        try FileManager.default.createDirectory(atPath: extracted, withIntermediateDirectories: true)
        let outcome = try BoardProcesses.run("/bin/sh", ["-c", "'\(git)' archive --format=tar HEAD:board | tar -xf - -C '\(extracted)'"],
                                             in: repository, environment: environment, timeout: 120)
        guard outcome.succeeded else { throw HarnessError(message: "cannot read HEAD's board: \(outcome)") }
        return try BoardFiles(reading: extracted)
    }

    /// Whether two card files differ only in their `position:` line.
    static func differOnlyInPosition(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        func lines(_ bytes: [UInt8]) -> [Substring] {
            String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("position:") }
        }
        return lines(left) == lines(right)
    }

    // MARK: Watch

    private func checkWatch(_ watch: StressWatchReport) -> StressCheck {
        var check = StressCheck(name: "kanban watch stayed up, printed only JSON lines, fell quiet after the workers, and exited 0 on SIGTERM")
        if !watch.wasRunning { check.problems.append("kanban watch had stopped before the harness stopped it: \(watch.outcome)") }
        if !watch.isQuiet {
            check.problems.append("kanban watch was still printing events \(Int(watch.quietSeconds.rounded())) s after the workers had finished")
        }
        if watch.outcome.timedOut || watch.outcome.signal != nil || watch.outcome.status != 0 {
            check.problems.append("kanban watch did not exit 0 on SIGTERM: \(watch.outcome.timedOut ? "timed out" : watch.outcome.signal.map { "signal \($0)" } ?? "exit status \(watch.outcome.status)")\n--- stderr ---\n\(watch.outcome.errorOutput)")
        }
        var events: [String: Int] = [:]
        for (number, line) in watch.outcome.output.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let event = object["event"] as? String else {
                if check.problems.count < 20 { check.problems.append("line \(number + 1) is not a JSON event: \(line.prefix(200))") }
                continue
            }
            events[event, default: 0] += 1
            // Every file is written whole and renamed into place: a watcher never sees a card that does not parse.
            if event == "invalid" && check.problems.count < 20 {
                check.problems.append("kanban watch saw a card that does not parse: \(line.prefix(300))")
            }
        }
        if !watch.outcome.output.isEmpty && !watch.outcome.output.hasSuffix("\n") {
            check.problems.append("the last line is incomplete: \(watch.outcome.output.split(separator: "\n").last?.prefix(200) ?? "")")
        }
        let stderrLines = watch.outcome.errorOutput.split(separator: "\n").filter { !$0.hasPrefix("watching ") }
        check.note = "\(events.values.reduce(0, +)) events (" + events.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
            + String(format: "; quiet %.1f s after the workers finished", watch.quietSeconds)
            + (stderrLines.isEmpty ? "" : "; on stderr: " + stderrLines.prefix(3).joined(separator: " | "))
        return check
    }

    /// The watcher's promise: every change is reported, so its events, applied in order, add up to the board as
    /// the workers left it (before doctor --fix): every card file with its title, and no other. A card file that
    /// is invalid at the end (on the disk, or by the watcher's last word on it) is left out on both sides.
    private func checkWatchEvents(_ watch: StressWatchReport, board: BoardFiles) -> StressCheck {
        var check = StressCheck(name: "the watcher's events, applied in order, add up to the board")
        let replay = WatchReplay(output: watch.outcome.output)
        var problems = replay.inconsistencies.map { "the events do not fit together: \($0)" }
        var excluded = 0
        var compared = 0
        func events(of path: String) -> String {
            let lines = replay.history[StressRunner.slug(ofCardPath: path)] ?? []
            guard !lines.isEmpty else { return "; no event named the card" }
            return "; its last events: " + lines.suffix(4).joined(separator: "; ")
        }
        for path in board.cardPaths {
            let onDisk = WatchReplay.title(ofCardFile: board.files[path] ?? [])
            let reported = replay.cards[path]
            if onDisk == nil || reported?.isInvalid == true {
                excluded += 1
                continue
            }
            compared += 1
            guard let reported else {
                problems.append("\(path) holds \"\(onDisk ?? "")\", but the events do not have this file" + events(of: path))
                continue
            }
            if reported.title != onDisk {
                problems.append("\(path) holds \"\(onDisk ?? "")\", but the events say \"\(reported.title ?? "(no title)")\"" + events(of: path))
            }
        }
        for (path, card) in replay.cards.sorted(by: { $0.key < $1.key }) where board.files[path] == nil {
            let what = card.isInvalid ? "an invalid card" : "\"\(card.title ?? "(no title)")\""
            problems.append("the events say \(path) holds \(what), but there is no such file" + events(of: path))
        }
        let limit = 20
        check.problems = problems.count > limit ? Array(problems.prefix(limit)) + ["... and \(problems.count - limit) more"] : problems
        check.note = "\(replay.counts.values.reduce(0, +)) events replayed into \(replay.cards.count) card files; "
            + "\(board.cardPaths.count) on the disk, \(compared) compared, \(excluded) invalid left out"
        return check
    }
}
