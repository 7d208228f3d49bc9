#!/usr/bin/env python3
"""Summary of a conformance/jersey-e2e/run.sh run: reads Surefire's XML reports under
REPORTS/<container>/<module>/TEST-*.xml and prints, as Markdown,

- per module: the tests (distinct test cases reported by either leg), and how many passed on Grizzly and on Fleche
  (a test passes when it is reported without failure, error or skip);
- every test that passes on Grizzly and not on Fleche, with Fleche's message;
- every test that passes on Fleche and not on Grizzly (for the record).

usage: summary.py REPORTS MODULE...
"""
import glob
import os
import sys
import xml.etree.ElementTree as ET

CONTAINERS = ("grizzly", "fleche")


def cases(directory):
    """{(class, name#n): (outcome, message)} of the reports in directory; outcome pass/fail/skip."""
    result = {}
    for path in sorted(glob.glob(os.path.join(directory, "TEST-*.xml"))):
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError as e:
            print("unreadable report %s: %s" % (path, e), file=sys.stderr)
            continue
        for case in root.iter("testcase"):
            key = (case.get("classname", "?"), case.get("name", "?"))
            n = 1
            while (key[0], "%s#%d" % (key[1], n)) in result:
                n += 1
            outcome, message = "pass", ""
            for child in case:
                if child.tag in ("failure", "error"):
                    outcome = "fail"
                    message = (child.get("message") or child.get("type") or "").strip().splitlines()
                    message = message[0][:200] if message else child.tag
                    break
                if child.tag == "skipped":
                    outcome = "skip"
            result[(key[0], "%s#%d" % (key[1], n))] = (outcome, message)
    return result


def name(key):
    cls, test = key
    test = test[:-2] if test.endswith("#1") else test
    return "%s.%s" % (cls.rsplit(".", 1)[-1], test)


def main(reports, modules):
    rows = []
    worse = []
    better = []
    totals = [0, 0, 0]
    for module in modules:
        legs = {c: cases(os.path.join(reports, c, module)) for c in CONTAINERS}
        keys = set(legs["grizzly"]) | set(legs["fleche"])
        passed = {c: sum(1 for k in keys if legs[c].get(k, ("absent",))[0] == "pass") for c in CONTAINERS}
        ran = {c: len(legs[c]) for c in CONTAINERS}
        rows.append((module, len(keys), passed["grizzly"], passed["fleche"], ran["grizzly"], ran["fleche"]))
        totals = [totals[0] + len(keys), totals[1] + passed["grizzly"], totals[2] + passed["fleche"]]
        for k in sorted(keys):
            g = legs["grizzly"].get(k, ("absent", ""))
            f = legs["fleche"].get(k, ("absent", ""))
            if g[0] == "pass" and f[0] != "pass":
                worse.append((module, k, f))
            elif f[0] == "pass" and g[0] != "pass":
                better.append((module, k, g))
    print("| module | tests | passed on Grizzly | passed on Fleche | reported (Grizzly / Fleche) |")
    print("|---|---:|---:|---:|---:|")
    for module, tests, g, f, rg, rf in rows:
        print("| %s | %d | %d | %d | %d / %d |" % (module, tests, g, f, rg, rf))
    print("| **all** | **%d** | **%d** | **%d** | |" % tuple(totals))
    print()
    print("Pass on Grizzly, not on Fleche: %d" % len(worse))
    for module, k, (outcome, message) in worse:
        print("- %s `%s` (%s) %s" % (module, name(k), outcome, message))
    print()
    print("Pass on Fleche, not on Grizzly: %d" % len(better))
    for module, k, (outcome, message) in better:
        print("- %s `%s` (%s on Grizzly) %s" % (module, name(k), outcome, message))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
