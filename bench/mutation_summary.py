"""Summarises a bench/mutation-score.sh results.tsv: kill rate, survivors, seed-correct variants flagged."""
import csv
import sys

rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
elapsed = sys.argv[2] if len(sys.argv) > 2 else str(sum(int(r["seconds"]) for r in rows))
bugs = [r for r in rows if r["variant"] == "bug"]
killed = [r for r in bugs if r["verdict"] == "killed"]
by_library = [r for r in killed if r["library"] == "1"]
print(f"kill rate: {len(killed)}/{len(bugs)} bugs killed ({100 * len(killed) / max(1, len(bugs)):.0f} %), "
      f"{len(by_library)} by the library, {len(killed) - len(by_library)} by explore; {elapsed} s in all")
survivors = [r["name"] for r in bugs if r["verdict"] != "killed"]
print("survived: " + (", ".join(survivors) or "none"))
errors = [r["name"] for r in rows if "error" in r["verdict"]]
if errors:
    print("errors (exit > 1): " + ", ".join(errors))
sc = [r for r in rows if r["variant"] == "seed-correct"]
flagged = [r["name"] for r in sc if r["verdict"] == "flagged"]
print(f"seed-correct variants flagged: {len(flagged)}/{len(sc)}" + (": " + ", ".join(flagged) if flagged else ""))
