#!/usr/bin/env python3
"""Which other processes used the CPU during a benchmark run; used by bench/run.sh.

  other_cpu.py snapshot FILE        CPU seconds of every process now (JSON)
  other_cpu.py since FILE OWN_PID   the 5 processes outside OWN_PID's tree that used the most CPU since
                                    the snapshot, as "seconds command" lines (processes that started
                                    and ended in between, such as compiler runs, are not seen)
"""
import json
import os
import sys

HZ = os.sysconf("SC_CLK_TCK")


def processes():
    out = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = open(f"/proc/{pid}/stat").read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        # Keyed by pid and start time, so a reused pid is not mistaken for the same process.
        out[f"{pid}/{fields[19]}"] = {"comm": stat[stat.index("(") + 1:stat.rindex(")")], "ppid": fields[1],
                                      "cpu": (int(fields[11]) + int(fields[12])) / HZ}
    return out


def main():
    mode, path = sys.argv[1], sys.argv[2]
    if mode == "snapshot":
        json.dump(processes(), open(path, "w"))
        return
    before, now, own = json.load(open(path)), processes(), sys.argv[3]
    parents = {key.split("/")[0]: p["ppid"] for key, p in now.items()}

    def ours(pid):
        while pid not in ("0", "1", None):
            if pid == own:
                return True
            pid = parents.get(pid)
        return False

    used = sorted(((p["cpu"] - before[k]["cpu"], p["comm"]) for k, p in now.items()
                   if k in before and not ours(k.split("/")[0])), reverse=True)
    for seconds, comm in used[:5]:
        if seconds >= 1:
            print(f"{seconds:.0f} {comm}")


if __name__ == "__main__":
    main()
