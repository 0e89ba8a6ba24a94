"""Loads `kanban serve` on loopback: descriptor exhaustion and a flood of blank lines (see serve-load-test.sh).

Usage: serve_load_test.py KANBAN_BINARY SAMPLE_BOARD
"""
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print(("ok      " if ok else "FAILED  ") + name + (f": {detail}" if detail else ""), flush=True)


def start(binary, board, limit):
    """`kanban serve` under `ulimit -n LIMIT`; returns the process, its port and token."""
    process = subprocess.Popen(
        ["/bin/sh", "-c", f'ulimit -n {limit} && exec "$0" serve --no-open', binary],
        cwd=board, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
        env={**os.environ, "HOME": os.path.dirname(board), "NO_COLOR": "1"})
    line = process.stdout.readline().decode()
    match = re.search(r":(\d+)/\?token=([0-9a-f]+)", line)
    if not match:
        process.kill()
        raise SystemExit(f"kanban serve printed no address: {line!r}")
    return process, int(match.group(1)), match.group(2)


def request(port, token, timeout):
    """One GET /api/board on a new connection; the status, or an error's text."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        connection.sendall(f"GET /api/board HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                           f"Authorization: Bearer {token}\r\nConnection: close\r\n\r\n".encode())
        head = connection.recv(64).decode(errors="replace")
        return head.split(" ")[1] if head.startswith("HTTP/1.1 ") else repr(head)


def resident_kilobytes(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def idle_connections(binary, board):
    process, port, token = start(binary, board, 1024)
    idle = []
    try:
        for _ in range(1100):
            idle.append(socket.create_connection(("127.0.0.1", port), timeout=10))
        time.sleep(0.5)
        started = time.monotonic()
        try:
            status = request(port, token, timeout=5)
        except OSError as error:
            status = str(error)
        elapsed = time.monotonic() - started
        check("a normal request after 1,100 idle connections under ulimit -n 1024 is answered within 1 s",
              status == "200" and elapsed <= 1.0, f"{status} in {elapsed:.3f} s")
        cpu = process_cpu(process.pid)
        time.sleep(2)
        used = process_cpu(process.pid) - cpu
        check("the server does not spin while the idle connections wait", used < 1.0, f"{used:.2f} s of CPU in 2 s")
    finally:
        for connection in idle:
            connection.close()
        process.terminate()
        process.wait(timeout=20)


def process_cpu(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def blank_lines(binary, board):
    process, port, token = start(binary, board, 1024)
    try:
        request(port, token, timeout=5)
        before = resident_kilobytes(process.pid)
        connections = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(50)]
        chunk = b"\r\n" * 8192
        sent = 0
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and connections:
            for connection in list(connections):
                try:
                    connection.sendall(chunk)
                    sent += len(chunk)
                except OSError:
                    connections.remove(connection)  # refused and closed: what should happen
            time.sleep(0.01)
        grown = (resident_kilobytes(process.pid) - before) / 1024
        for connection in connections:
            connection.close()
        check("50 connections sending blank lines for 5 s grow the server by less than 20 MB", grown < 20,
              f"{grown:.1f} MB after {sent / 1e6:.1f} MB sent")
        check("the server answers after the flood", request(port, token, timeout=5) == "200")
    finally:
        process.terminate()
        process.wait(timeout=20)


def main():
    binary, sample = sys.argv[1], sys.argv[2]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1300:
        if hard != resource.RLIM_INFINITY and hard < 1300:
            print(f"serve-load-test: skipped: this shell may open only {hard} descriptors")
            return 0
        resource.setrlimit(resource.RLIMIT_NOFILE, (1300 if hard == resource.RLIM_INFINITY else min(hard, 4096), hard))
    directory = tempfile.mkdtemp(prefix="kanban-load-")
    board = os.path.join(directory, "board")
    shutil.copytree(sample, board)
    try:
        idle_connections(binary, board)
        blank_lines(binary, board)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    failed = results.count(False)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
