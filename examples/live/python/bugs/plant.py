#!/usr/bin/env python3
"""Plant one of four bugs in ../careful_service.py and run it.

    python3 plant.py BUG [PORT]      run the careful service with BUG planted
    python3 plant.py --print BUG     print the planted source (diff it with
                                     ../careful_service.py to see the bug)
    python3 plant.py --list          the bugs, one a line

Each bug is one line of careful_service.py replaced, or one line added
after it; the line is found exactly once or plant.py fails. The planted
service runs in this process (its pid is the service's, as
../restart.sh expects); nothing is written to disk. README.md shows each
bug's diff and which rows of once live --suite payments catch it.

Standard library only.
"""
import os
import sys

CAREFUL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "careful_service.py")

# name: (how, the line of careful_service.py, the planted line); how is
# "replace" (the planted line stands for it) or "after" (added below it).
BUGS = {
    "lease_shorter_than_timeout": (
        "replace",
        "LEASE = 30.0  # seconds a claimed key stays locked: longer than PROVIDER_TIMEOUT",
        "LEASE = 0.5  # planted bug: the lease is shorter than PROVIDER_TIMEOUT, so a retry takes a key over while its charge may still land",
    ),
    "recovery_point_before_charge": (
        "after",
        '    if point == "started":',
        """        sql("UPDATE idempotency_keys SET recovery_point = 'charge_created' WHERE key = ?", key)  # planted bug: the recovery point is committed before the charge""",
    ),
    "fingerprint_without_amount": (
        "replace",
        '    fingerprint = hashlib.sha256(json.dumps({"path": "/payments", "amount": amount}).encode()).hexdigest()',
        '    fingerprint = hashlib.sha256(json.dumps({"path": "/payments"}).encode()).hexdigest()  # planted bug: the fingerprint ignores the amount',
    ),
    "no_recovery_after_restart": (
        "replace",
        "    recover()",
        "    pass  # planted bug: keys a crash left unfinished are not recovered at start",
    ),
}


def planted(bug):
    """careful_service.py's source with bug planted; exits if bug is not
    one of BUGS or its line is not in the source exactly once."""
    if bug not in BUGS:
        sys.exit(f"plant.py: no bug {bug!r}; the bugs: {', '.join(BUGS)}")
    how, line, new = BUGS[bug]
    if "\n" in new or "# planted bug:" not in new:
        sys.exit(f"plant.py: {bug}: the planted line must be one line marked '# planted bug:'")
    with open(CAREFUL, encoding="utf-8") as f:
        lines = f.read().split("\n")
    at = [i for i, text in enumerate(lines) if text == line]
    if len(at) != 1:
        sys.exit(f"plant.py: {bug}: the line {line!r} is in careful_service.py {len(at)} times, want once")
    i = at[0]
    lines[i : i + 1] = [new] if how == "replace" else [line, new]
    return "\n".join(lines)


def main(argv):
    if argv[:1] == ["--list"]:
        print("\n".join(BUGS))
    elif argv[:1] == ["--print"] and len(argv) == 2:
        sys.stdout.write(planted(argv[1]))
    elif len(argv) in (1, 2) and not argv[0].startswith("-"):
        bug = argv[0]
        code = compile(planted(bug), f"careful_service.py (planted: {bug})", "exec")
        sys.argv = [CAREFUL] + argv[1:]
        exec(code, {"__name__": "__main__", "__file__": CAREFUL, "__builtins__": __builtins__})
    else:
        sys.exit("usage: plant.py BUG [PORT] | --print BUG | --list")


if __name__ == "__main__":
    main(sys.argv[1:])
