#!/usr/bin/env python3
"""make bench-log: `schemalab import MODEL --log LOG` on big SQLDebug logs (docs/import.md, "Reading a big log").

Writes a log of each size (MB) into OUTDIR: the fatbobman fixtures (Tests/Fixtures/SQLDebug, level 1,
verbatim: indented lines, a cut `oreData:` prefix, the article's own lines) and a level-3 session of the
same app (NSLog prefixes, bound values that change from statement to statement, a row dump after each
fetch, a prefetch, a batched fetch with its windows, a count, a save, the app's own output), repeated
until the size is reached. Then runs the import of each with the fixture's model, and prints its lines,
seconds, MB/s and peak resident memory (the child's ru_maxrss, from wait4: what /usr/bin/time -v reads).
Exits 1 when the import fails or when the biggest log's peak memory is more than twice the smallest's.

usage: bench-log.py SCHEMALAB MODEL OUTDIR SIZE_MB...
"""
import os
import random
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = [os.path.join(ROOT, "Tests/Fixtures/SQLDebug", name + ".log")
            for name in ("fatbobman-count-attachments", "fatbobman-count-derived")]
ITEM = "0, t0.Z_PK, t0.Z_OPT, t0.ZATTACHMENTCOUNT, t0.ZBIRTHOFYEAR, t0.ZTIMESTAMP FROM ZITEM t0"
ATTACHMENT = "0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZITEM FROM ZATTACHMENT t0"
WORDS = ["receipt", "scan", "photo", "invoice", "note", "ticket", "contract", "draft"]


def session(rng, n, clock):
    """One screen of the app at level 3: the lines, with NSLog's prefix on Core Data's and NSLog's own."""
    lines = []

    def log(text):
        clock[0] += rng.randint(1, 40)
        ms = clock[0]
        stamp = "2024-03-02 %02d:%02d:%02d.%03d" % (9 + ms // 3_600_000 % 12, ms // 60_000 % 60, ms // 1000 % 60, ms % 1000)
        lines.append("%s Shelf[4211:%d] %s" % (stamp, 88120 + n % 7, text))

    def bind(i, value):
        log("CoreData: details: SQLite bind[%d] = %s" % (i, value))

    def fetched(sql, entity, rows, row):
        log("CoreData: annotation: sql connection fetch time: %.4fs" % (rows * 0.00002 + rng.random() * 0.001))
        log("CoreData: annotation: fetch using NSSQLiteStatement <0x6000%08x> on entity '%s' with sql text '%s' returned %d rows with values: ("
            % (rng.getrandbits(32), entity, sql, rows))
        for r in range(rows):
            lines.append('    "<NSSQLRow: 0x6000%08x>%s"%s' % (rng.getrandbits(32), row(r), "," if r < rows - 1 else ""))
        lines.append(")")
        log("CoreData: annotation: total fetch execution time: %.4fs for %d rows." % (rows * 0.00003 + rng.random() * 0.002, rows))

    year = rng.randint(1990, 2010)
    since = 7.0e8 + rng.random() * 3.0e7
    log("Shelf: items screen %d appeared (filter: %d)" % (n, year))
    sql = "SELECT %s WHERE ( t0.ZTIMESTAMP > ? AND  t0.ZBIRTHOFYEAR = ?) ORDER BY t0.ZTIMESTAMP DESC" % ITEM
    log("CoreData: sql: " + sql)
    bind(0, "%.6f" % since)
    bind(1, str(year))
    rows = rng.randint(2, 30)
    fetched(sql, "Item", rows, lambda r: "{Item 2-%d-1 (\\n    %d,\\n    %d,\\n    \\\"%.6f\\\"\\n)}" % (
        rng.randint(1, 10**6), rng.randint(0, 9), year, since + r))
    log("CoreData: annotation: Bound intarray _Z_intarray0")
    log("CoreData: annotation: Bound intarray values.")
    prefetch = "SELECT %s WHERE  t0.ZITEM IN (SELECT * FROM _Z_intarray0)  ORDER BY t0.ZITEM" % ATTACHMENT
    log("CoreData: sql: " + prefetch)
    attachments = rng.randint(0, 3 * rows)
    fetched(prefetch, "Attachment", attachments, lambda r: "{Attachment 1-%d-1 (\\n    \\\"%s %d\\\",\\n    \\\"0x%x <x-coredata://5B0B/Item/p%d>\\\"\\n)}" % (
        rng.randint(1, 10**6), rng.choice(WORDS), r, rng.getrandbits(24), rng.randint(1, 10**6)))
    log("CoreData: annotation: Prefetching with key 'attachments'.  Got %d rows." % attachments)
    lines.append("Loaded %d items with %d attachments in %d ms" % (rows, attachments, rng.randint(1, 90)))

    log("CoreData: sql: SELECT COUNT( DISTINCT t0.Z_PK) FROM ZITEM t0 WHERE  t0.ZATTACHMENTCOUNT > ?")
    bind(0, str(rng.randint(0, 12)))
    log("CoreData: annotation: total count request execution time: %.4fs for count of %d." % (rng.random() * 0.001, rng.randint(0, 5000)))

    log("CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0 ORDER BY t0.ZBIRTHOFYEAR")
    log("CoreData: annotation: sql connection fetch time: %.4fs" % (rng.random() * 0.002))
    log("CoreData: annotation: total fetch execution time: %.4fs for %d rows." % (rng.random() * 0.003, rng.randint(100, 5000)))
    for _ in range(rng.randint(1, 3)):
        window = "SELECT %s WHERE  t0.Z_PK IN (SELECT * FROM _Z_intarray0)   LIMIT 20" % ITEM
        log("CoreData: annotation: Bound intarray _Z_intarray0")
        log("CoreData: sql: " + window)
        fetched(window, "Item", 20, lambda r: "{Item 2-%d-1 (...)}" % rng.randint(1, 10**6))
    log("Shelf: scrolled to %d" % rng.randint(0, 5000))

    log("CoreData: sql: BEGIN EXCLUSIVE")
    log("CoreData: sql: SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
    bind(0, "(int64)1")
    log("CoreData: sql: UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?")
    key = rng.randint(1, 10**6)
    for i, v in enumerate((key + 1, 1, key)):
        bind(i, str(v))
    log("CoreData: sql: INSERT INTO ZATTACHMENT(Z_PK, Z_ENT, Z_OPT, ZITEM, ZTITLE) VALUES(?, ?, ?, ?, ?)")
    for i, v in enumerate((str(key + 1), "1", "1", str(rng.randint(1, 10**6)), '"%s %d"' % (rng.choice(WORDS), n))):
        bind(i, v)
    log("CoreData: sql: UPDATE ZITEM SET ZATTACHMENTCOUNT = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?")
    for i, v in enumerate((rng.randint(1, 12), rng.randint(2, 9), rng.randint(1, 10**6), 1)):
        bind(i, str(v))
    log("CoreData: sql: COMMIT")
    log("CoreData: annotation: sql execution time: %.4fs" % (rng.random() * 0.001))
    return lines


def write_log(path, megabytes):
    """The log, about `megabytes` MB; returns its bytes."""
    fixtures = "".join(open(f, encoding="utf-8").read().rstrip("\n") + "\n\n" for f in FIXTURES)
    rng = random.Random(34)
    clock = [0]
    target = megabytes * 1_000_000
    written = 0
    n = 0
    with open(path, "w", encoding="utf-8") as out:
        while written < target:
            chunk = ("\n".join(session(rng, n, clock)) + "\n") if n % 5 else fixtures
            out.write(chunk)
            written += len(chunk.encode("utf-8"))
            n += 1
    return written


def run(schemalab, model, log, scenario):
    """The import under wait4: (seconds, peak RSS in MB, lines read, its output)."""
    start = time.monotonic()
    child = subprocess.Popen([schemalab, "import", model, "--log", log, "--out", scenario, "--replace"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = child.stdout.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.monotonic() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit("bench-log: schemalab import failed (exit %d):\n%s" % (child.returncode, output))
    lines = re.search(r"level \d+, (\d+) lines", output)
    return seconds, usage.ru_maxrss / 1024, int(lines.group(1)) if lines else 0, output


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    schemalab, model, outdir, sizes = sys.argv[1], sys.argv[2], sys.argv[3], [int(s) for s in sys.argv[4:]]
    os.makedirs(outdir, exist_ok=True)
    peaks = []
    print("%8s %12s %9s %7s %13s" % ("log MB", "lines", "seconds", "MB/s", "peak RSS MB"))
    for size in sizes:
        log = os.path.join(outdir, "app-%dMB.log" % size)
        if not os.path.exists(log) or abs(os.path.getsize(log) - size * 1_000_000) > 100_000:
            write_log(log, size)
        megabytes = os.path.getsize(log) / 1_000_000
        seconds, peak, lines, output = run(schemalab, model, log, os.path.join(outdir, "app-%dMB.json" % size))
        peaks.append(peak)
        print("%8.1f %12d %9.2f %7.1f %13.1f" % (megabytes, lines, seconds, megabytes / seconds, peak), flush=True)
    print(next(l for l in output.splitlines() if " lines, " in l))
    if len(peaks) > 1 and peaks[-1] > 2 * peaks[0]:
        sys.exit("bench-log: peak memory grows with the log: %.1f MB at %d MB, %.1f MB at %d MB" % (peaks[0], sizes[0], peaks[-1], sizes[-1]))
    print("peak memory bounded: %.1f MB at %d MB of log, %.1f MB at %d MB" % (peaks[0], sizes[0], peaks[-1], sizes[-1]))


if __name__ == "__main__":
    main()
