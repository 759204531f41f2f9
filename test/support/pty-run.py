"""Runs a command in a real pseudo-terminal: what this script reads on stdin is typed into the
terminal (so Ctrl-C is byte 0x03, turned into SIGINT by the terminal unless the program is in raw
mode), and everything the program writes to the terminal comes out on stdout. Exits with the
program's exit code. Used by the approval prompt tests (python3's pty module, no native addon)."""
import os
import pty
import select
import sys

pid, master = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])

stdin_open = True
while True:
    watched = [master] + ([0] if stdin_open else [])
    ready, _, _ = select.select(watched, [], [])
    if master in ready:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        os.write(1, data)
    if stdin_open and 0 in ready:
        data = os.read(0, 65536)
        if data:
            os.write(master, data)
        else:
            stdin_open = False

_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
