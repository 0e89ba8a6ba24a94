/// A place to kill a command: the `occurrence`-th call (1-based) of `syscall` made by kanban's main thread, or by
/// the `gitRun`-th git process kanban starts.
///
/// strace counts injections per system call and per traced thread (`man strace`: "accounting of syscalls that are
/// subject to injection is done per syscall and per tracee"). Without `-f` only the traced program's first thread
/// is followed, which is the one kanban changes the board on; git gets its own strace, one run at a time, through
/// a wrapper named by `KANBAN_GIT`.
struct CrashKillPoint: Sendable, Hashable, CustomStringConvertible {
    var syscall: String
    var occurrence: Int
    /// Which git process (1-based, in the order kanban starts them); nil for kanban itself.
    var gitRun: Int? = nil
    /// The git command of that process (`commit`), for reports.
    var gitCommand: String? = nil

    var description: String {
        let call = "\(syscall) #\(occurrence)"
        guard let gitRun else { return call }
        return "git run \(gitRun) (\(gitCommand ?? "?")): \(call)"
    }

    /// The system calls that change the disk (or, for `write`, say something: a kill while printing counts too).
    ///
    /// `openat` is left out: strace delivers the signal as a call is entered, before it runs, so a kill at an
    /// `openat(O_CREAT)` of a temporary file leaves the disk as a kill at the `unlinkat` just before it (which
    /// clears a stale temporary and finds none), and a kill at the `write` just after it sees the file created.
    /// Counting only the creating `openat`s would also depend on how many files kanban happened to read first.
    static let diskSyscalls = ["write", "pwrite64", "rename", "renameat", "renameat2", "link", "linkat", "unlink", "unlinkat",
                               "mkdir", "mkdirat", "rmdir", "fsync", "fdatasync", "fchmod", "ftruncate"]

    /// The calls an strace log (`strace -o LOG -e trace=...`, one thread) records, by name, in order.
    static func calls(inTrace log: String) -> [String] {
        log.split(separator: "\n").compactMap { line in
            guard let first = line.first, first.isLetter, let open = line.firstIndex(of: "(") else { return nil }
            let name = String(line[..<open])
            return diskSyscalls.contains(name) ? name : nil
        }
    }

    /// One kill point for every call in `calls`: the first `write`, the second `write`, ...
    static func points(for calls: [String], gitRun: Int? = nil, gitCommand: String? = nil) -> [CrashKillPoint] {
        var seen: [String: Int] = [:]
        return calls.map { name in
            seen[name, default: 0] += 1
            return CrashKillPoint(syscall: name, occurrence: seen[name] ?? 1, gitRun: gitRun, gitCommand: gitCommand)
        }
    }

    /// At most `limit` of `points`, spread evenly from the first to the last (all of them when `limit` is 0).
    static func spread(_ points: [CrashKillPoint], limit: Int) -> [CrashKillPoint] {
        guard limit > 0, points.count > limit else { return points }
        guard limit > 1 else { return [points[points.count / 2]] }
        var chosen: [CrashKillPoint] = []
        for index in 0..<limit {
            let point = points[index * (points.count - 1) / (limit - 1)]
            if chosen.last != point { chosen.append(point) }
        }
        return chosen
    }

    /// strace's arguments to run `command` and kill it at this point (kanban's own points only).
    func straceArguments(_ command: [String]) -> [String] {
        ["-o", "/dev/null", "-e", "trace=\(syscall)", "-e", "inject=\(syscall):signal=SIGKILL:when=\(occurrence)", "--"] + command
    }

    /// A shell script to name in `KANBAN_GIT`: it counts git runs in `counter`, and either traces each run's disk
    /// calls into `<traces>.<run>` (with its arguments in `<traces>.<run>.arguments`) when `point` is nil, or kills
    /// run `point.gitRun` at the point and then kills kanban, its parent, as a `kill -9` of the whole command would.
    static func gitWrapper(git: String, strace: String, counter: String, traces: String, point: CrashKillPoint?) -> String {
        let run = """
            #!/bin/sh
            run=$(( $(cat '\(counter)' 2>/dev/null || echo 0) + 1 ))
            echo "$run" > '\(counter)'

            """
        guard let point, let gitRun = point.gitRun else {
            return run + """
                printf '%s\\n' "$*" > '\(traces)'."$run".arguments
                exec '\(strace)' -o '\(traces)'."$run" -e trace=\(diskSyscalls.joined(separator: ",")) -- '\(git)' "$@"

                """
        }
        return run + """
            if [ "$run" -eq \(gitRun) ]; then
              '\(strace)' -o /dev/null -e trace=\(point.syscall) -e inject=\(point.syscall):signal=SIGKILL:when=\(point.occurrence) -- '\(git)' "$@"
              status=$?
              if [ "$status" -eq 137 ]; then kill -KILL "$PPID"; fi
              exit "$status"
            fi
            exec '\(git)' "$@"

            """
    }
}
