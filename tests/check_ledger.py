#!/usr/bin/env python3
# check_ledger.py OUT ERR JUNIT SEED N torn|whole: the ledger of a random
# campaign of N scenarios of SEED, as its standard output and error and
# its JUnit file show it. Every scenario 0..N-1 is in the JUnit file once,
# passed, failed, lost or not run; the summary counts the same and lists
# the lost and not run with the --indices command that runs exactly those;
# every PASS/FAIL line agrees with the JUnit file, none is outside the
# range; with "whole", every scenario run has its line (with "torn", mpirun
# ended the job and stopped reading, so lines may be missing). Prints the
# counts; exits with the first disagreement.
import re, sys, xml.etree.ElementTree as E
out, err, xml, seed, n, torn = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6] == "torn"
want = set(range(n))
def indices(text):
    s = set()
    for part in text.split(","):
        m = re.fullmatch(r"(\d+)(?:-(\d+)(?::(\d+))?)?", part)
        if not m: sys.exit("not a list of scenarios: " + text)
        a = int(m.group(1)); b = int(m.group(2) or a); step = int(m.group(3) or 1)
        s.update(range(a, b + 1, step))
    return s
# the JUnit file: every scenario of the range once
junit = {}
for tc in E.parse(xml).getroot().iter("testcase"):
    m = re.fullmatch(r"random-%s-(\d+)" % seed, tc.get("name"))
    if not m: sys.exit("a testcase named " + tc.get("name"))
    i = int(m.group(1))
    f = tc.find("failure")
    s = "not run" if tc.find("skipped") is not None else "pass" if f is None else "lost" if f.get("type") == "lost" else "fail"
    if i in junit: sys.exit("scenario %d twice in the JUnit file" % i)
    junit[i] = s
if set(junit) != want:
    sys.exit("the JUnit file: missing %s, outside the range %s" % (sorted(want - set(junit))[:10], sorted(set(junit) - want)[:10]))
def of(st): return {i for i, s in junit.items() if s == st}
# the output: standard output, and standard error where a job being ended
# repeats the failures and the summary
text = open(out, errors="replace").read() + open(err, errors="replace").read()
lines = {}
for line in text.splitlines():
    m = re.match(r"(PASS|FAIL) random-%s-(\d+)\b(.*)" % seed, line)
    if not m: continue
    i = int(m.group(2))
    s = "lost" if re.match(r": lost with (rank|its process)", m.group(3)) else m.group(1).lower()
    if i not in want: sys.exit("scenario %d, outside the range, in the output" % i)
    if lines.setdefault(i, s) != s: sys.exit("scenario %d both %s and %s in the output" % (i, lines[i], s))
    if junit[i] != s: sys.exit("scenario %d: %s in the output, %s in the JUnit file" % (i, s, junit[i]))
summ = [l for l in text.splitlines() if re.match(r"random: \d+ scenarios \(seed", l)]
if not summ: sys.exit("no summary in the output")
m = re.match(r"random: (\d+) scenarios \(seed \d+, scenarios 0\.\.(\d+)\): (\d+) passed, (\d+) failed(?:, (\d+) lost, (\d+) not run)?", summ[-1])
if not m: sys.exit("not a summary: " + summ[-1])
total, last, *counts = (int(g or 0) for g in m.groups())
if (total, last) != (n, n - 1): sys.exit("the summary's range is not the campaign's: " + summ[-1])
states = ("pass", "fail", "lost", "not run")
if counts != [len(of(s)) for s in states]:
    sys.exit("the summary counts %s, the JUnit file %s" % (counts, [len(of(s)) for s in states]))
listed = [l for l in text.splitlines() if re.match(r"random: (lost|not run): ", l)]
if counts[2] + counts[3]:
    if not listed: sys.exit("%d lost or not run, but no list of them" % (counts[2] + counts[3]))
    m = re.search(r"not run: ([0-9,:-]+)", listed[-1])
    if (indices(m.group(1)) if m else set()) != of("not run"): sys.exit("the not run listed differ: " + listed[-1])
    m = re.search(r"lost: ([0-9,:-]+)", listed[-1])
    if (indices(m.group(1)) if m else set()) != of("lost"): sys.exit("the lost listed differ: " + listed[-1])
    m = re.search(r"run them: .* --indices ([0-9,:-]+)", listed[-1])
    if not m or indices(m.group(1)) != of("lost") | of("not run"):
        sys.exit("no command that runs exactly the lost and not run: " + listed[-1])
# a job that mpirun ends loses the lines mpirun no longer reads, and says
# so (docs/campaigns.md)
missing = want - set(lines) - of("not run")
if missing and not torn:
    sys.exit("the output: no line for %s" % sorted(missing)[:10])
if missing and "lines were dropped" not in open(err, errors="replace").read():
    sys.exit("the output: no line for %s, and no word that lines were dropped" % sorted(missing)[:10])
print("%s: %d passed, %d failed, %d lost, %d not run%s" % (xml.split("/")[-1][:-4], *counts,
      ", %d lines dropped, as said" % len(missing) if missing else ", every line printed"))
